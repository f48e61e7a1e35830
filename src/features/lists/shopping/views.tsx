import type { Group } from '../../../db/schema.js';
import { Time } from '../../../platform/views/controls.js';
import { Field, Select } from '../../../platform/views/forms.js';
import type { ViewContext } from '../../../platform/views/context.js';
import { ItemActions, ItemTick } from '../item-pages.js';
import { ListFormFrame, ListPageFrame } from '../list-page.js';
import type { ListPage } from '../service.js';
import { type FormState, GroupFields } from '../views.js';
import { currencyChoices } from '../../accounts/index.js';
import { ITEM_LABELS, ItemFields } from './item-views.js';
import { SHOPPING, type ShoppingItemRow, type ShoppingListRow } from './kind.js';
import { STORE_MAX } from './forms.js';
import { type EstimatedTotal, estimatedTotal, formatCents, formatMoney, showQuantity } from './money.js';

export function ShoppingFormPage({ ctx, list, groups, values = {}, errors = {} }: {
  ctx: ViewContext; list?: { id: number; title: string }; groups: Pick<Group, 'id' | 'name'>[];
} & FormState) {
  // A new list starts in its owner's currency (the account page's); an edit shows the list's.
  const currency = values.currency ?? ctx.user?.currency ?? '';
  return (
    <ListFormFrame ctx={ctx} kind={SHOPPING} list={list} newTitle={ctx.t('shopping.new_title')} values={values} errors={errors}>
      <Field name="store_name" label={ctx.t('shopping.store_label')} value={values.store_name} errors={errors} maxLength={STORE_MAX} />
      <GroupFields ctx={ctx} kind={SHOPPING} groups={groups} values={values} errors={errors} />
      <Select name="currency" label={ctx.t('shopping.currency_label')} value={currency} choices={currencyChoices(ctx)} errors={errors}
        help={ctx.t('shopping.currency_help')} />
    </ListFormFrame>
  );
}

/** Who added the item, who bought it and when. */
function WhoDidWhat({ ctx, item, timeZone }: { ctx: ViewContext; item: ShoppingItemRow; timeZone: string }) {
  const bought = item.is_done === 1 && item.done_by_name && item.done_at !== null;
  if (!item.created_by_name && !bought) return null;
  return (
    <small class="who">
      {item.created_by_name ? ctx.t('lists.added_by', { name: item.created_by_name }) : null}
      {item.created_by_name && bought ? ' · ' : null}
      {bought ? <>{ctx.t('shopping.bought_by', { name: item.done_by_name! })} <Time ms={item.done_at!} timeZone={timeZone} /></> : null}
    </small>
  );
}

/** One item, its price in its list's currency: the page and its live updates (shopping/live.ts) render it alike. */
export function ItemRow({ ctx, item, currency, canTick, canEdit }: { ctx: ViewContext; item: ShoppingItemRow; currency: string; canTick: boolean; canEdit: boolean }) {
  const bought = item.is_done === 1;
  const name = bought ? <del>{item.name}</del> : <span>{item.name}</span>;
  const price = item.estimated_price_cents;
  return (
    <tr class={bought ? 'bought' : undefined} data-item-id={String(item.id)} data-order={SHOPPING.items.orderKey(item)} id={`item-${item.id}`} tabindex={-1}>
      <td>
        <ItemTick ctx={ctx} kind={SHOPPING} itemId={item.id} done={bought} canTick={canTick}
          label={ctx.t(bought ? 'shopping.mark_not_bought' : 'shopping.mark_bought', { name: item.name })}
          state={ctx.t(bought ? 'shopping.state_bought' : 'shopping.state_to_buy')} />
      </td>
      <td>
        {name} <WhoDidWhat ctx={ctx} item={item} timeZone={ctx.user!.timezone} />
      </td>
      <td class="number">{showQuantity(item.quantity_milli, ctx.language)}{item.unit ? ` ${item.unit}` : ''}</td>
      <td class="number">{price === null ? ctx.t('shopping.no_price') : formatMoney(price, currency, ctx.language)}</td>
      {canEdit ? (
        <ItemActions ctx={ctx} kind={SHOPPING} itemId={item.id} name={item.name} cell />
      ) : null}
    </tr>
  );
}

/** The estimated total in the list's currency and the viewer's language: the page and its live updates render it alike. */
export function Total({ ctx, total }: { ctx: Pick<ViewContext, 't' | 'language'>; total: EstimatedTotal & { currency: string } }) {
  return (
    <p class="shopping-total">
      {ctx.t('shopping.total')} <strong data-amount={formatCents(total.cents)}>{formatMoney(total.cents, total.currency, ctx.language)}</strong>
      {total.unpriced ? <small> {ctx.t('shopping.unpriced', { count: total.unpriced })}</small> : null}
    </p>
  );
}

/**
 * A column's header: on a phone its short form is shown (none: the column speaks for itself) and
 * the full one is read by screen readers only, so that no header breaks inside a word.
 */
function Header({ full, short }: { full: string; short?: string }) {
  return (
    <>
      <span class="header-full">{full}</span>
      {short ? <span class="header-short" aria-hidden="true">{short}</span> : null}
    </>
  );
}

/** A shopping list's page: its store and group, its items as a table, and the estimated total of those still to buy. */
export function ShoppingListPage({ ctx, page, share, item }: { ctx: ViewContext; page: ListPage<ShoppingListRow, ShoppingItemRow>; share?: FormState; item?: FormState }) {
  const { list, items, canEdit, canTick } = page;
  const group = list.group_name ? { name: list.group_name, permission: list.group_permission } : null;
  const total = estimatedTotal(items);
  return (
    <ListPageFrame ctx={ctx} kind={SHOPPING} page={page} group={group} labels={ITEM_LABELS} share={share} item={item}
      fields={({ values, errors }) => <ItemFields ctx={ctx} values={values} errors={errors} />}
      header={list.store_name ? <p class="store">{ctx.t('shopping.at_store', { store: list.store_name })}</p> : null}>
      <h2 id="items">{ctx.t('lists.items')}</h2>
      {items.length ? (
        <div class="table-scroll">
          <table class="shopping-items">
            <thead>
              <tr>
                <th scope="col"><Header full={ctx.t('shopping.status')} /></th>
                <th scope="col">{ctx.t('shopping.item')}</th>
                <th scope="col" class="number"><Header full={ctx.t('shopping.quantity_label')} short={ctx.t('shopping.quantity_short')} /></th>
                <th scope="col" class="number"><Header full={ctx.t('shopping.price_each')} short={ctx.t('shopping.price_short')} /></th>
                {canEdit ? <th scope="col"><span class="visually-hidden">{ctx.t('shopping.actions')}</span></th> : null}
              </tr>
            </thead>
            <tbody>{items.map((entry) => <ItemRow ctx={ctx} item={entry} currency={list.currency} canTick={canTick} canEdit={canEdit} />)}</tbody>
          </table>
        </div>
      ) : (
        <p class="empty">{ctx.t(canTick ? 'shopping.empty_tick' : 'lists.empty_read')}</p>
      )}
      <Total ctx={ctx} total={{ ...total, currency: list.currency }} />
      {/* Shown once something is bought (live-list.js shows and hides it as ticks arrive). */}
      {canEdit && items.length > 0 ? (
        <p data-clear-bought="" hidden={!items.some((entry) => entry.is_done === 1)}>
          <a href={`/shopping/${list.id}/clear-bought/`} role="button" class="secondary outline small" data-confirm="">{ctx.t('shopping.clear_bought')}</a>
        </p>
      ) : null}
    </ListPageFrame>
  );
}

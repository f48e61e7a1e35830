import { AudiencePanel } from '../../platform/views/audience.js';
import type { Group } from '../../db/schema.js';
import { Time } from '../../platform/views/controls.js';
import { CsrfField, Field, FormAlert, Select } from '../../platform/views/forms.js';
import { assetUrl } from '../../platform/views/assets.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import { PERMISSION_LABELS } from '../lists-sharing/sharing.js';
import { type FormState, PERMISSION_CHOICES, SharePanel, SharedBy } from '../lists-sharing/views.js';
import { ErrorSummary, ReplaceUrl } from '../lists-sharing/item-pages.js';
import { ITEM_LABELS, ItemFields } from './item-views.js';
import { SHOPPING } from './kind.js';
import { STORE_MAX, TITLE_MAX } from './forms.js';
import { type EstimatedTotal, formatCents, formatMoney, formatQuantity } from './money.js';
import type { ShoppingItemRow } from './repository.js';
import type { ShoppingPage } from './service.js';

export { SHOPPING };

export function ShoppingFormPage({ ctx, list, groups, values = {}, errors = {} }: {
  ctx: ViewContext; list?: { id: number; title: string }; groups: Pick<Group, 'id' | 'name'>[];
} & FormState) {
  const choices = [{ value: '', label: 'No group' }, ...groups.map((group) => ({ value: String(group.id), label: group.name }))];
  return (
    <Layout ctx={ctx} title={list ? `Edit ${list.title}` : 'New shopping list'}>
      <article class="narrow">
        <h1>{list ? <>Edit “{list.title}”</> : 'New shopping list'}</h1>
        <form method="post" action={list ? `/shopping/${list.id}/edit/` : '/shopping/new/'} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="title" label="Title" value={values.title} errors={errors} required maxLength={TITLE_MAX} autofocus />
          <Field name="store_name" label="Store (optional)" value={values.store_name} errors={errors} maxLength={STORE_MAX} />
          <Select name="group" label="Group (optional)" value={values.group} choices={choices} errors={errors}
            help={groups.length ? 'Members of the group can read the list; only you can rename, delete or share it.' : 'You are in no group yet; create one under Groups to shop together.'} />
          <Select name="group_permission" label="The group's members may" value={values.group_permission ?? 'read'} choices={PERMISSION_CHOICES} errors={errors}
            help="Used only when the list has a group." />
          <button type="submit">{list ? 'Save' : 'Create list'}</button>
          <a href={list ? `/shopping/${list.id}/` : '/shopping/'} role="button" class="secondary outline">Cancel</a>
        </form>
      </article>
    </Layout>
  );
}

/** Who added the item, who bought it and when. */
function WhoDidWhat({ item, timeZone }: { item: ShoppingItemRow; timeZone: string }) {
  const bought = item.is_bought === 1 && item.bought_by_name && item.bought_at !== null;
  if (!item.created_by_name && !bought) return null;
  return (
    <small class="who">
      {item.created_by_name ? <>added by {item.created_by_name}</> : null}
      {item.created_by_name && bought ? ' · ' : null}
      {bought ? <>bought by {item.bought_by_name} <Time ms={item.bought_at!} timeZone={timeZone} /></> : null}
    </small>
  );
}

/** One item: the page and its live updates (shopping/live.ts) render it alike. */
export function ItemRow({ ctx, item, canTick, canEdit }: { ctx: ViewContext; item: ShoppingItemRow; canTick: boolean; canEdit: boolean }) {
  const bought = item.is_bought === 1;
  const name = bought ? <del>{item.name}</del> : <span>{item.name}</span>;
  const price = item.estimated_price_cents;
  return (
    <tr class={bought ? 'bought' : undefined} data-item-id={String(item.id)} id={`item-${item.id}`} tabindex={-1}>
      <td>
        {canTick ? (
          <form method="post" action={`/shopping/items/${item.id}/toggle/`} class="inline">
            <CsrfField ctx={ctx} />
            <button type="submit" class="toggle secondary outline small" aria-label={bought ? `Mark “${item.name}” as not bought` : `Mark “${item.name}” as bought`}>
              <span aria-hidden="true">{bought ? '☑' : '☐'}</span>
            </button>
          </form>
        ) : (
          <span class="state">{bought ? 'Bought' : 'To buy'}</span>
        )}
      </td>
      <td>
        {name} <WhoDidWhat item={item} timeZone={ctx.user!.timezone} />
      </td>
      <td class="number">{formatQuantity(item.quantity_milli)}{item.unit ? ` ${item.unit}` : ''}</td>
      <td class="number">{price === null ? '–' : formatMoney(price, ctx.user!.currency)}</td>
      {canEdit ? (
        <td class="item-actions">
          <a href={`/shopping/items/${item.id}/edit/`} role="button" class="secondary outline small" aria-label={`Edit “${item.name}”`}>Edit</a>{' '}
          <a href={`/shopping/items/${item.id}/delete/`} role="button" class="secondary outline small" data-confirm="" aria-label={`Delete “${item.name}”`}>Delete</a>
        </td>
      ) : null}
    </tr>
  );
}

export function Total({ total, currency }: { total: EstimatedTotal; currency?: string }) {
  return (
    <p class="shopping-total">
      Estimated total still to buy: <strong data-amount={formatCents(total.cents)}>{formatMoney(total.cents, currency)}</strong>
      {total.unpriced ? <small> ({total.unpriced === 1 ? 'one item has' : `${total.unpriced} items have`} no price and {total.unpriced === 1 ? 'is' : 'are'} not counted)</small> : null}
    </p>
  );
}

function AddItemForm({ ctx, listId, values = {}, errors = {} }: { ctx: ViewContext; listId: number } & FormState) {
  // The anchor after an add (#add-item): its first field takes the focus (public/js/app.js).
  return (
    <section aria-labelledby="add-item-title" id="add-item">
      <h2 id="add-item-title">Add an item</h2>
      <form method="post" action={`/shopping/${listId}/items/add/`} novalidate>
        <CsrfField ctx={ctx} />
        <FormAlert errors={errors} />
        <ItemFields values={values} errors={errors} />
        <button type="submit">Add item</button>
      </form>
    </section>
  );
}

/** What a reader who is not the owner may do, said under the title. */
function NotOwnerLine({ list, canTick }: { list: ShoppingPage['list']; canTick: boolean }) {
  return (
    <p>
      <SharedBy list={list} />.{' '}
      {canTick ? 'You can tick and add items; only its owner can change or delete them.' : 'You can read this list; only its owner can change it.'}
    </p>
  );
}

export function ShoppingListPage({ ctx, list, items, total, canEdit, canTick, sharedWith, ownerGroups, audience, share, item }: { ctx: ViewContext; share?: FormState; item?: FormState } & ShoppingPage) {
  const group = list.group_name ? { name: list.group_name, permission: list.group_permission } : null;
  return (
    <Layout ctx={ctx} title={list.title}>
      {item?.errors ? <><ErrorSummary errors={item.errors} labels={ITEM_LABELS} /><ReplaceUrl url={`/shopping/${list.id}/`} /></> : null}
      <header class="page-header">
        <div>
          <h1>{list.title}</h1>
          {list.store_name ? <p class="store">At {list.store_name}</p> : null}
          {canEdit ? (group ? <p>Members of group <strong>{group.name}</strong> {PERMISSION_LABELS[group.permission]}.</p> : null) : (
            <NotOwnerLine list={list} canTick={canTick} />
          )}
        </div>
        {canEdit ? (
          <div class="actions">
            <a href={`/shopping/${list.id}/edit/`} role="button" class="secondary outline">Edit</a>
            <a href={`/shopping/${list.id}/delete/`} role="button" class="secondary outline">Delete</a>
          </div>
        ) : null}
      </header>
      <section aria-labelledby="items" id="live-list" tabindex={-1} data-socket-path={`/ws/shopping/${list.id}/`} data-currency={ctx.user!.currency || undefined}>
        <h2 id="items">Items</h2>
        {items.length ? (
          <div class="table-scroll">
            <table class="shopping-items">
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Item</th>
                  <th scope="col" class="number">Quantity</th>
                  <th scope="col" class="number">Price each</th>
                  {canEdit ? <th scope="col"><span class="visually-hidden">Actions</span></th> : null}
                </tr>
              </thead>
              <tbody>{items.map((entry) => <ItemRow ctx={ctx} item={entry} canTick={canTick} canEdit={canEdit} />)}</tbody>
            </table>
          </div>
        ) : (
          <p class="empty">{canTick ? 'The list is empty. Add the first thing to buy below.' : 'This list has no items yet.'}</p>
        )}
        <Total total={total} currency={ctx.user!.currency} />
        {canEdit && items.length > 0 ? <p><a href={`/shopping/${list.id}/clear-bought/`} role="button" class="secondary outline small" data-confirm="">Clear bought items</a></p> : null}
      </section>
      {canTick ? <AddItemForm ctx={ctx} listId={list.id} {...item} /> : null}
      {canEdit ? <SharePanel ctx={ctx} kind={SHOPPING} listId={list.id} users={sharedWith} group={group} groups={ownerGroups} {...share} /> : null}
      <AudiencePanel members={audience} viewerId={ctx.user!.id} noun="shopping list" groupName={list.group_name} />
      <p><a href="/shopping/">← All shopping lists</a></p>
      <script src={assetUrl('js/live-list.js')} defer />
    </Layout>
  );
}

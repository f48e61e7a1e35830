import { CsrfField, Field } from '../../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../../platform/forms.js';
import { Layout } from '../../../platform/views/layout.js';
import type { ViewContext } from '../../../platform/views/context.js';
import type { MessageKey } from '../../../platform/i18n/index.js';
import { EditItemPage } from '../item-pages.js';
import type { FormState } from '../views.js';
import { NAME_MAX, UNIT_MAX } from './forms.js';
import { SHOPPING } from './kind.js';

/** The item fields, named in the error summary as their labels say. */
export const ITEM_LABELS: Record<string, MessageKey> = { name: 'shopping.name_label', quantity: 'shopping.quantity_label', unit: 'shopping.unit_label', estimated_price: 'shopping.price_label' };

/** An item's fields: the add form and the edit page share them. */
export function ItemFields({ ctx, values, errors }: { ctx: ViewContext; values: FormValues; errors: FormErrors }) {
  return (
    <>
      <Field name="name" label={ctx.t('shopping.name_label')} value={values.name} errors={errors} required maxLength={NAME_MAX} />
      <div class="grid">
        <Field name="quantity" label={ctx.t('shopping.quantity_label')} value={values.quantity} errors={errors} inputMode="decimal" help={ctx.t('shopping.quantity_help')} />
        <Field name="unit" label={ctx.t('shopping.unit_optional')} value={values.unit} errors={errors} maxLength={UNIT_MAX} help={ctx.t('shopping.unit_help')} />
        <Field name="estimated_price" label={ctx.t('shopping.price_optional')} value={values.estimated_price} errors={errors} inputMode="decimal" help={ctx.t('shopping.price_help')} />
      </div>
    </>
  );
}

export function EditShoppingItemPage({ ctx, item, listTitle, values = {}, errors = {} }: {
  ctx: ViewContext; item: { id: number; list_id: number; name: string }; listTitle: string;
} & FormState) {
  return (
    <EditItemPage ctx={ctx} kind={SHOPPING} listId={item.list_id} listTitle={listTitle} itemName={item.name} action={`/shopping/items/${item.id}/edit/`} labels={ITEM_LABELS} errors={errors}>
      <ItemFields ctx={ctx} values={values} errors={errors} />
    </EditItemPage>
  );
}

/** GET /shopping/<pk>/clear-bought/: asks before the bought items go. */
export function ClearBoughtPage({ ctx, list, bought }: { ctx: ViewContext; list: { id: number; title: string }; bought: number }) {
  return (
    <Layout ctx={ctx} title={ctx.t('shopping.clear_title', { title: list.title })}>
      <article class="narrow">
        <h1>{ctx.t('shopping.clear_heading', { title: list.title })}</h1>
        <p>{bought === 0 ? ctx.t('shopping.clear_none') : ctx.t('shopping.clear_some', { count: bought })}</p>
        <form method="post" action={`/shopping/${list.id}/clear-bought/`}>
          <CsrfField ctx={ctx} />
          <div class="actions">
            <button type="submit" class="danger">{ctx.t('shopping.clear_bought')}</button>
            <a href={`/shopping/${list.id}/`} role="button" class="secondary outline">{ctx.t('lists.cancel')}</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}

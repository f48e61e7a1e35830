import { CsrfField, Field, type FormErrors, type FormValues } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import { EditItemPage } from '../lists-sharing/item-pages.js';
import type { FormState } from '../lists-sharing/views.js';
import { NAME_MAX, UNIT_MAX } from './forms.js';
import { SHOPPING } from './kind.js';

/** The item fields, named in the error summary as their labels say. */
export const ITEM_LABELS: Record<string, string> = { name: 'What to buy', quantity: 'Quantity', unit: 'Unit', estimated_price: 'Price per unit' };

/** An item's fields: the add form and the edit page share them. */
export function ItemFields({ values, errors }: { values: FormValues; errors: FormErrors }) {
  return (
    <>
      <Field name="name" label="What to buy" value={values.name} errors={errors} required maxLength={NAME_MAX} />
      <div class="grid">
        <Field name="quantity" label="Quantity" value={values.quantity} errors={errors} inputMode="decimal" help="Empty means 1; decimals like 1.5 (or 1,5) are fine." />
        <Field name="unit" label="Unit (optional)" value={values.unit} errors={errors} maxLength={UNIT_MAX} help="kg, l, pack…" />
        <Field name="estimated_price" label="Price per unit (optional)" value={values.estimated_price} errors={errors} inputMode="decimal" help="Like 2.49 (or 2,49)" />
      </div>
    </>
  );
}

export function EditShoppingItemPage({ ctx, item, listTitle, values = {}, errors = {} }: {
  ctx: ViewContext; item: { id: number; list_id: number; name: string }; listTitle: string;
} & FormState) {
  return (
    <EditItemPage ctx={ctx} kind={SHOPPING} listId={item.list_id} listTitle={listTitle} itemName={item.name} action={`/shopping/items/${item.id}/edit/`} labels={ITEM_LABELS} errors={errors}>
      <ItemFields values={values} errors={errors} />
    </EditItemPage>
  );
}

/** GET /shopping/<pk>/clear-bought/: asks before the bought items go. */
export function ClearBoughtPage({ ctx, list, bought }: { ctx: ViewContext; list: { id: number; title: string }; bought: number }) {
  return (
    <Layout ctx={ctx} title={`Clear bought items of ${list.title}`}>
      <article class="narrow">
        <h1>Clear the bought items of “{list.title}”?</h1>
        <p>
          {bought === 0 ? 'No item is marked bought: nothing would go.' : bought === 1 ? 'The one bought item goes' : `The ${bought} bought items go`}
          {bought === 0 ? null : ' for everyone who can see the list. This cannot be undone.'}
        </p>
        <form method="post" action={`/shopping/${list.id}/clear-bought/`}>
          <CsrfField ctx={ctx} />
          <div class="actions">
            <button type="submit" class="danger">Clear bought items</button>
            <a href={`/shopping/${list.id}/`} role="button" class="secondary outline">Cancel</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}

import type { ComponentChildren } from 'preact';
import { DeleteConfirmPage } from '../../platform/views/controls.js';
import { CsrfField, type FormErrors } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import type { FormState, ListKind } from './views.js';

// Pieces both kinds of list use around their items: the error summary of a failed item form, the
// item edit page, the item delete confirmation and where a change lands afterwards.

/** After an item changed: the list's own URL, at the item's row (which is focusable). */
export const itemAnchor = (kind: ListKind, listId: number, itemId: number) => `${kind.base}/${listId}/#item-${itemId}`;
/** After an add: at the add form, whose first field takes the focus (public/js/app.js). */
export const addAnchor = (kind: ListKind, listId: number) => `${kind.base}/${listId}/#add-item`;
/** After items went (a delete, clearing bought items): at the list of items. */
export const itemsAnchor = (kind: ListKind, listId: number) => `${kind.base}/${listId}/#live-list`;

/**
 * The failed form's errors at the top of the page, each a link to its field; public/js/app.js
 * focuses the box. `labels` names the fields; errors of fields it does not name are left to the
 * form's own alert.
 */
export function ErrorSummary({ errors, labels }: { errors: FormErrors; labels: Record<string, string> }) {
  const entries = Object.entries(labels).flatMap(([name, label]) => (errors[name] ?? []).map((message) => ({ name, label, message })));
  if (entries.length === 0) return null;
  return (
    <div class="error-summary" tabindex={-1} data-error-summary aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">There is a problem with the item</h2>
      <ul>
        {entries.map((entry) => (
          <li>
            <a href={`#id_${entry.name}`}>
              {entry.label}: {entry.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A 400 page answering a POST to another path: with its script, the address bar shows `url`
 * (the list's own) again, so that a reload reads the list instead of posting again.
 */
export function ReplaceUrl({ url }: { url: string }) {
  return <div hidden data-replace-url={url} />;
}

/** The item edit page: the kind's item fields in a form that posts to `action`. */
export function EditItemPage({ ctx, kind, listId, listTitle, itemName, action, labels, errors = {}, children }: {
  ctx: ViewContext; kind: ListKind; listId: number; listTitle: string; itemName: string; action: string;
  labels: Record<string, string>; children: ComponentChildren;
} & FormState) {
  return (
    <Layout ctx={ctx} title={`Edit ${itemName}`}>
      <article class="narrow">
        <ErrorSummary errors={errors} labels={labels} />
        <h1>Edit “{itemName}”</h1>
        <p>In <a href={`${kind.base}/${listId}/`}>{listTitle}</a>.</p>
        <form method="post" action={action} novalidate>
          <CsrfField ctx={ctx} />
          {children}
          <button type="submit">Save item</button>
          <a href={`${kind.base}/${listId}/`} role="button" class="secondary outline">Cancel</a>
        </form>
      </article>
    </Layout>
  );
}

/** GET on an item's /delete/ path: the shared confirmation, whose form posts as the list's Delete did. */
export function DeleteItemPage({ ctx, kind, item }: { ctx: ViewContext; kind: ListKind; item: { id: number; list_id: number; name: string } }) {
  return DeleteConfirmPage({
    ctx,
    kind: 'item',
    name: item.name,
    action: `${kind.base}/items/${item.id}/delete/`,
    cancel: itemAnchor(kind, item.list_id, item.id),
    consequence: `It goes from the ${kind.noun} for everyone who can see it. This cannot be undone.`,
  });
}

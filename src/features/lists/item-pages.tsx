import type { ComponentChildren } from 'preact';
import { DeleteConfirmPage } from '../../platform/views/controls.js';
import { CsrfField } from '../../platform/views/forms.js';
import { type FormErrors } from '../../platform/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';
import { type Message, say } from '../../platform/i18n/index.js';
import type { FormState, KindPaths } from './views.js';

// Pieces both kinds of list use around their items: the error summary of a failed item form, the
// item edit page, the item delete confirmation and where a change lands afterwards.

/** After an item changed: the list's own URL, at the item's row (which is focusable). */
export const itemAnchor = (kind: KindPaths, listId: number, itemId: number) => `${kind.base}/${listId}/#item-${itemId}`;
/** After an add: at the add form, whose first field takes the focus (public/js/app.js). */
export const addAnchor = (kind: KindPaths, listId: number) => `${kind.base}/${listId}/#add-item`;
/** After items went (a delete, clearing bought items): at the list of items. */
export const itemsAnchor = (kind: KindPaths, listId: number) => `${kind.base}/${listId}/#live-list`;

/**
 * The failed form's errors at the top of the page, each a link to its field; public/js/app.js
 * focuses the box. `labels` names the fields; errors of fields it does not name are left to the
 * form's own alert.
 */
export function ErrorSummary({ errors, labels }: { errors: FormErrors; labels: Record<string, Message> }) {
  const entries = Object.entries(labels).flatMap(([name, label]) => (errors[name] ?? []).map((message) => ({ name, label, message })));
  if (entries.length === 0) return null;
  return (
    <div class="error-summary" tabindex={-1} data-error-summary aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">{say('lists.error_summary')}</h2>
      <ul>
        {entries.map((entry) => (
          <li>
            <a href={`#id_${entry.name}`}>
              {say({ key: 'lists.error_entry', values: { label: say(entry.label), message: say(entry.message) } })}
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
  ctx: ViewContext; kind: KindPaths; listId: number; listTitle: string; itemName: string; action: string;
  labels: Record<string, Message>; children: ComponentChildren;
} & FormState) {
  return (
    <Layout ctx={ctx} title={ctx.t('lists.edit_title', { name: itemName })}>
      <article class="narrow">
        <ErrorSummary errors={errors} labels={labels} />
        <h1>{ctx.t('lists.edit_named', { name: itemName })}</h1>
        <p>{ctx.t('lists.in_list')} <a href={`${kind.base}/${listId}/`}>{listTitle}</a>.</p>
        <form method="post" action={action} novalidate>
          <CsrfField ctx={ctx} />
          {children}
          <button type="submit">{ctx.t('lists.save_item')}</button>
          <a href={`${kind.base}/${listId}/`} role="button" class="secondary outline">{ctx.t('lists.cancel')}</a>
        </form>
      </article>
    </Layout>
  );
}

/** GET on an item's /delete/ path: the shared confirmation, whose form posts as the list's Delete did. */
export function DeleteItemPage({ ctx, kind, item }: { ctx: ViewContext; kind: KindPaths; item: { id: number; list_id: number; name: string } }) {
  return DeleteConfirmPage({
    ctx,
    kind: 'item',
    name: item.name,
    action: `${kind.base}/items/${item.id}/delete/`,
    cancel: itemAnchor(kind, item.list_id, item.id),
    consequence: ctx.t('lists.delete_item_consequence', { kind: kind.name }),
  });
}

/** An item's tick: a button for whoever may tick it (`label` names it for screen readers), else its state in words. */
export function ItemTick({ ctx, kind, itemId, done, canTick, label, state }: {
  ctx: ViewContext; kind: KindPaths; itemId: number; done: boolean; canTick: boolean; label: string; state: string;
}) {
  if (!canTick) return <span class="state">{state}</span>;
  return (
    <form method="post" action={`${kind.base}/items/${itemId}/toggle/`} class="inline">
      <CsrfField ctx={ctx} />
      <button type="submit" class="toggle secondary outline small" aria-label={label}>
        <span aria-hidden="true">{done ? '☑' : '☐'}</span>
      </button>
    </form>
  );
}

/** An item's edit and delete links, for whoever may edit its list; in a table cell where the kind shows items as rows. */
export function ItemActions({ ctx, kind, itemId, name, cell = false }: { ctx: ViewContext; kind: KindPaths; itemId: number; name: string; cell?: boolean }) {
  const links = (
    <>
      <a href={`${kind.base}/items/${itemId}/edit/`} role="button" class="secondary outline small" aria-label={ctx.t('lists.edit_named', { name })}>{ctx.t('lists.edit')}</a>{' '}
      <a href={`${kind.base}/items/${itemId}/delete/`} role="button" class="secondary outline small" data-confirm="" aria-label={ctx.t('lists.delete_named', { name })}>{ctx.t('lists.delete')}</a>
    </>
  );
  return cell ? <td class="item-actions">{links}</td> : <span class="item-actions">{links}</span>;
}

import type { ComponentChildren } from 'preact';
import type { SharePermission } from '../../db/schema.js';
import type { FormErrors, FormValues } from '../../platform/forms.js';
import type { Message } from '../../platform/i18n/index.js';
import { assetUrl } from '../../platform/views/assets.js';
import { AudiencePanel } from '../../platform/views/audience.js';
import type { ViewContext } from '../../platform/views/context.js';
import { CsrfField, Field, FormAlert } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import { TITLE_MAX } from './forms.js';
import { ErrorSummary, ReplaceUrl } from './item-pages.js';
import type { ListPage } from './service.js';
import { type FormState, type KindPaths, SharePanel, SharedBy } from './views.js';

// A list's page, the same frame for every kind: its title and the owner's actions, its items (the
// kind draws them), the add form (the kind's fields), the owner's sharing panel and who can see it.
// Live updates (public/js/live-list.js) replace the items the kind draws, one row at a time.

/** A list's group as its page states it: its name and what its members may do. */
export interface PageGroup {
  name: string;
  permission: SharePermission;
}

/** The item fields of a kind: the add form and the edit page share them. */
export type ItemFieldsView = (props: { values: FormValues; errors: FormErrors }) => ComponentChildren;

function AddItemForm({ ctx, kind, listId, fields, values = {}, errors = {} }: { ctx: ViewContext; kind: KindPaths; listId: number; fields: ItemFieldsView } & FormState) {
  // The anchor after an add (#add-item): its first field takes the focus (public/js/app.js).
  return (
    <section aria-labelledby="add-item-title" id="add-item">
      <h2 id="add-item-title">{ctx.t('lists.add_item')}</h2>
      <form method="post" action={`${kind.base}/${listId}/items/add/`} novalidate>
        <CsrfField ctx={ctx} />
        <FormAlert errors={errors} />
        {fields({ values, errors })}
        <button type="submit">{ctx.t('lists.add_item_button')}</button>
      </form>
    </section>
  );
}

/** What a reader who is not the owner may do, said under the title. */
function NotOwnerLine({ ctx, ownerName, group, canTick }: { ctx: ViewContext; ownerName: string; group: PageGroup | null; canTick: boolean }) {
  return (
    <p>
      <SharedBy list={{ owner_name: ownerName, group_name: group?.name ?? null }} />.{' '}
      {ctx.t(canTick ? 'lists.not_owner_tick' : 'lists.not_owner_read')}
    </p>
  );
}

export function ListPageFrame<List extends { id: number; title: string }, Item>({ ctx, kind, page, group, labels, fields, header, intro, children, share, item }: {
  ctx: ViewContext;
  kind: KindPaths;
  page: ListPage<List, Item>;
  /** The list's group (kinds with groups), or null. */
  group: PageGroup | null;
  /** The item fields' labels, for the error summary of a failed add. */
  labels: Record<string, Message>;
  fields: ItemFieldsView;
  /** More under the title (a shopping list's store). */
  header?: ComponentChildren;
  /** Between the title and the items (a to-do list's description). */
  intro?: ComponentChildren;
  /** The items' section: its heading and the items as the kind draws them. */
  children: ComponentChildren;
  share?: FormState;
  item?: FormState;
}) {
  const { list, canEdit, canTick } = page;
  const which = { kind: kind.name };
  // A new list (no items, nobody to see it but its owner) shows its sharing first: whom it is for
  // comes before what is on it, so that a to-do item can be given to them from the start.
  const shareFirst = canEdit && page.items.length === 0 && page.sharedWith.length === 0 && group === null;
  const sharePanel = canEdit ? <SharePanel ctx={ctx} kind={kind} listId={list.id} users={page.sharedWith} group={group} {...share} /> : null;
  return (
    <Layout ctx={ctx} title={list.title}>
      {item?.errors ? <><ErrorSummary errors={item.errors} labels={labels} /><ReplaceUrl url={`${kind.base}/${list.id}/`} /></> : null}
      <header class="page-header">
        <div>
          <h1>{list.title}</h1>
          {header}
          {canEdit ? (group ? <p>{ctx.t('lists.members_of_group')} <strong>{group.name}</strong> {ctx.t('lists.group_permission', { permission: group.permission })}.</p> : null) : (
            <NotOwnerLine ctx={ctx} ownerName={list.owner_name} group={group} canTick={canTick} />
          )}
        </div>
        {canEdit ? (
          <div class="actions">
            <a href={`${kind.base}/${list.id}/edit/`} role="button" class="secondary outline">{ctx.t('lists.edit')}</a>
            <a href={`${kind.base}/${list.id}/delete/`} role="button" class="secondary outline">{ctx.t('lists.delete')}</a>
          </div>
        ) : null}
      </header>
      {intro}
      {/* What live-list.js says in place of the items when the list is deleted, or no longer the viewer's to see. */}
      <section aria-labelledby="items" id="live-list" tabindex={-1} data-socket-path={`/ws/${kind.name}/${list.id}/`}
        data-word-deleted={ctx.t('lists.live_deleted')} data-word-no-access={ctx.t('lists.live_no_access')}
        data-word-back={ctx.t('lists.back', which)} data-back-path={`${kind.base}/`}>
        {children}
      </section>
      {shareFirst ? sharePanel : null}
      {canTick ? <AddItemForm ctx={ctx} kind={kind} listId={list.id} fields={fields} {...item} /> : null}
      {shareFirst ? null : sharePanel}
      <AudiencePanel members={page.audience} viewerId={ctx.user!.id} kind={kind.name} groupName={group?.name ?? null} />
      <p><a href={`${kind.base}/`}>{ctx.t('lists.back', which)}</a></p>
      <script src={assetUrl('js/live-list.js')} defer />
    </Layout>
  );
}

/**
 * A list's new or edit form, the same frame for every kind: the title, the kind's own fields
 * (`children`), save and cancel. `newTitle` is the kind's heading for a new list.
 */
export function ListFormFrame({ ctx, kind, list, newTitle, errors, values, children }: {
  ctx: ViewContext;
  kind: KindPaths;
  list?: { id: number; title: string };
  newTitle: string;
  values: FormValues;
  errors: FormErrors;
  children: ComponentChildren;
}) {
  return (
    <Layout ctx={ctx} title={list ? ctx.t('lists.edit_title', { name: list.title }) : newTitle}>
      <article class="narrow">
        <h1>{list ? ctx.t('lists.edit_named', { name: list.title }) : newTitle}</h1>
        <form method="post" action={list ? `${kind.base}/${list.id}/edit/` : `${kind.base}/new/`} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="title" label={ctx.t('lists.title_label')} value={values.title} errors={errors} required maxLength={TITLE_MAX} autofocus />
          {children}
          <button type="submit">{ctx.t(list ? 'lists.save' : 'lists.create')}</button>
          <a href={list ? `${kind.base}/${list.id}/` : `${kind.base}/`} role="button" class="secondary outline">{ctx.t('lists.cancel')}</a>
        </form>
      </article>
    </Layout>
  );
}

import { AudiencePanel } from '../../platform/views/audience.js';
import type { TodoList } from '../../db/schema.js';
import { assetUrl } from '../../platform/views/assets.js';
import { Time } from '../../platform/views/controls.js';
import { CsrfField, Field, FormAlert, TextArea } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import { type FormState, SharePanel, SharedBy } from '../lists-sharing/views.js';
import { ErrorSummary, ReplaceUrl } from '../lists-sharing/item-pages.js';
import { ITEM_LABELS, ItemFields } from './item-views.js';
import { TODO } from './kind.js';
import { isOverdue } from './dates.js';
import { todayIn } from '../../platform/time-zones.js';
import { DESCRIPTION_MAX, TITLE_MAX } from './forms.js';
import type { AssignedItem, TodoItemRow } from './repository.js';
import type { TodoPage } from './service.js';

export { TODO };

export function TodoFormPage({ ctx, list, values = {}, errors = {} }: { ctx: ViewContext; list?: TodoList } & FormState) {
  const title = list ? `Edit ${list.title}` : 'New to-do list';
  return (
    <Layout ctx={ctx} title={title}>
      <article class="narrow">
        <h1>{list ? <>Edit “{list.title}”</> : 'New to-do list'}</h1>
        <form method="post" action={list ? `/todo/${list.id}/edit/` : '/todo/new/'} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="title" label="Title" value={values.title} errors={errors} required maxLength={TITLE_MAX} autofocus />
          <TextArea name="description" label="Description (optional)" value={values.description} errors={errors} rows={3} maxLength={DESCRIPTION_MAX} />
          <button type="submit">{list ? 'Save' : 'Create list'}</button>
          <a href={list ? `/todo/${list.id}/` : '/todo/'} role="button" class="secondary outline">Cancel</a>
        </form>
      </article>
    </Layout>
  );
}

/** Who added the item, whom it is for, who ticked it and when. */
function WhoDidWhat({ item, timeZone }: { item: TodoItemRow; timeZone: string }) {
  return (
    <small class="who">
      {item.assignee_name ? <> · for <strong class="assignee">{item.assignee_name}</strong></> : null}
      {item.created_by_name ? <> · added by {item.created_by_name}</> : null}
      {item.is_done === 1 && item.done_by_name && item.done_at !== null ? (
        <> · done by {item.done_by_name} <Time ms={item.done_at} timeZone={timeZone} /></>
      ) : null}
    </small>
  );
}

/** One item: the page and its live updates (todo/live.ts) render it alike. */
export function ItemRow({ ctx, item, canTick, canEdit, today }: { ctx: ViewContext; item: TodoItemRow; canTick: boolean; canEdit: boolean; today: string }) {
  const done = item.is_done === 1;
  const overdue = isOverdue(item, today);
  const text = done ? <del class="item-text">{item.text}</del> : <span class="item-text">{item.text}</span>;
  return (
    <li class={['todo-item', done ? 'done' : '', overdue ? 'overdue' : ''].filter(Boolean).join(' ')} data-item-id={String(item.id)} id={`item-${item.id}`} tabindex={-1}>
      {canTick ? (
        <form method="post" action={`/todo/items/${item.id}/toggle/`} class="inline">
          <CsrfField ctx={ctx} />
          <button type="submit" class="toggle secondary outline small" aria-label={done ? `Mark “${item.text}” as not done` : `Mark “${item.text}” as done`}>
            <span aria-hidden="true">{done ? '☑' : '☐'}</span>
          </button>
        </form>
      ) : (
        <span class="state">{done ? 'Done:' : 'Open:'}</span>
      )}{' '}
      {text}
      {item.due_date ? (
        <small class="due">
          {' '}due <time datetime={item.due_date} data-format="date">{item.due_date}</time>
        </small>
      ) : null}
      {overdue ? <strong class="badge overdue-badge">Overdue</strong> : null}{' '}
      <WhoDidWhat item={item} timeZone={ctx.user!.timezone} />
      {canEdit ? (
        <span class="item-actions">
          <a href={`/todo/items/${item.id}/edit/`} role="button" class="secondary outline small" aria-label={`Edit “${item.text}”`}>Edit</a>{' '}
          <a href={`/todo/items/${item.id}/delete/`} role="button" class="secondary outline small" data-confirm="" aria-label={`Delete “${item.text}”`}>Delete</a>
        </span>
      ) : null}
    </li>
  );
}

function AddItemForm({ ctx, listId, assignees, values = {}, errors = {} }: { ctx: ViewContext; listId: number; assignees: TodoPage['assignees'] } & FormState) {
  // The anchor after an add (#add-item): its first field takes the focus (public/js/app.js).
  return (
    <section aria-labelledby="add-item-title" id="add-item">
      <h2 id="add-item-title">Add an item</h2>
      <form method="post" action={`/todo/${listId}/items/add/`} novalidate>
        <CsrfField ctx={ctx} />
        <FormAlert errors={errors} />
        <ItemFields values={values} errors={errors} assignees={assignees} />
        <button type="submit">Add item</button>
      </form>
    </section>
  );
}

/** On /todo/: the caller's open items in lists they may still read. */
export function AssignedToMe({ items }: { items: AssignedItem[] }) {
  return (
    <section aria-labelledby="assigned">
      <h2 id="assigned">Assigned to me</h2>
      {items.length ? (
        <ul class="assigned-items">
          {items.map((item) => (
            <li>
              {item.text}
              {item.due_date ? (
                <small class="due">
                  {' '}due <time datetime={item.due_date} data-format="date">{item.due_date}</time>
                </small>
              ) : null}{' '}
              <small>in <a href={`/todo/${item.list_id}/`}>{item.list_title}</a></small>
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">Nothing is assigned to you.</p>
      )}
    </section>
  );
}

/** What a reader who is not the owner may do, said under the title. */
function NotOwnerLine({ ownerName, canTick }: { ownerName: string; canTick: boolean }) {
  return (
    <p>
      <SharedBy list={{ owner_name: ownerName, group_name: null }} />.{' '}
      {canTick ? 'You can tick and add items; only its owner can change or delete them.' : 'You can read this list; only its owner can change it.'}
    </p>
  );
}

export function TodoListPage({ ctx, list, items, canEdit, canTick, assignees, sharedWith, ownerGroups, audience, share, item }: { ctx: ViewContext; share?: FormState; item?: FormState } & TodoPage) {
  // The reader's today: an item due today is not overdue anywhere its reader still lives in today.
  const today = todayIn(ctx.user!.timezone);
  const open = items.filter((entry) => entry.is_done === 0).length;
  return (
    <Layout ctx={ctx} title={list.title}>
      {item?.errors ? <><ErrorSummary errors={item.errors} labels={ITEM_LABELS} /><ReplaceUrl url={`/todo/${list.id}/`} /></> : null}
      <header class="page-header">
        <div>
          <h1>{list.title}</h1>
          {canEdit ? null : <NotOwnerLine ownerName={list.owner_name} canTick={canTick} />}
        </div>
        {canEdit ? (
          <div class="actions">
            <a href={`/todo/${list.id}/edit/`} role="button" class="secondary outline">Edit</a>
            <a href={`/todo/${list.id}/delete/`} role="button" class="secondary outline">Delete</a>
          </div>
        ) : null}
      </header>
      {list.description ? <p class="list-description">{list.description}</p> : null}
      <section aria-labelledby="items" id="live-list" tabindex={-1} data-socket-path={`/ws/todo/${list.id}/`}>
        <h2 id="items">Items<span data-live-counts>{items.length ? ` (${open} open of ${items.length})` : ''}</span></h2>
        {items.length ? (
          <ul class="todo-items">
            {items.map((entry) => <ItemRow ctx={ctx} item={entry} canTick={canTick} canEdit={canEdit} today={today} />)}
          </ul>
        ) : (
          <p class="empty">{canTick ? 'Nothing to do yet. Add the first item below.' : 'This list has no items yet.'}</p>
        )}
      </section>
      {canTick ? <AddItemForm ctx={ctx} listId={list.id} assignees={assignees} {...item} /> : null}
      {canEdit ? <SharePanel ctx={ctx} kind={TODO} listId={list.id} users={sharedWith} groups={ownerGroups} {...share} /> : null}
      <AudiencePanel members={audience} viewerId={ctx.user!.id} noun="to-do list" groupName={null} />
      <p><a href="/todo/">← All to-do lists</a></p>
      <script src={assetUrl('js/live-list.js')} defer />
    </Layout>
  );
}

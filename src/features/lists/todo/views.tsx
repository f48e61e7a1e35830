import type { Group, TodoList } from '../../../db/schema.js';
import { CalendarDate, Time } from '../../../platform/views/controls.js';
import { TextArea } from '../../../platform/views/forms.js';
import type { ViewContext } from '../../../platform/views/context.js';
import { type FormState, GroupFields } from '../views.js';
import { ItemActions, ItemTick } from '../item-pages.js';
import { ListFormFrame, ListPageFrame } from '../list-page.js';
import type { ListPage } from '../service.js';
import { ITEM_LABELS, ItemFields } from './item-views.js';
import { isOverdue } from './dates.js';
import { todayIn } from '../../../platform/time-zones.js';
import { DESCRIPTION_MAX } from './forms.js';
import type { AssignedItem } from './assigned.js';
import { TODO, type TodoItemRow, type TodoListRow } from './kind.js';

/** A to-do list's new and edit form: its group comes with it, so that its members are there to give items to from the start. */
export function TodoFormPage({ ctx, list, groups, values = {}, errors = {} }: { ctx: ViewContext; list?: TodoList; groups: Pick<Group, 'id' | 'name'>[] } & FormState) {
  return (
    <ListFormFrame ctx={ctx} kind={TODO} list={list} newTitle={ctx.t('todo.new_title')} values={values} errors={errors}>
      <TextArea name="description" label={ctx.t('todo.description_label')} value={values.description} errors={errors} rows={3} maxLength={DESCRIPTION_MAX} />
      <GroupFields ctx={ctx} kind={TODO} groups={groups} values={values} errors={errors} />
    </ListFormFrame>
  );
}

/** Who added the item, whom it is for, who ticked it and when. */
function WhoDidWhat({ ctx, item, timeZone }: { ctx: ViewContext; item: TodoItemRow; timeZone: string }) {
  return (
    <small class="who">
      {item.assignee_name ? <> · {ctx.t('todo.for')} <strong class="assignee">{item.assignee_name}</strong></> : null}
      {item.created_by_name ? <> · {ctx.t('lists.added_by', { name: item.created_by_name })}</> : null}
      {item.is_done === 1 && item.done_by_name && item.done_at !== null ? (
        <> · {ctx.t('todo.done_by', { name: item.done_by_name })} <Time ms={item.done_at} timeZone={timeZone} /></>
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
    <li class={['todo-item', done ? 'done' : '', overdue ? 'overdue' : ''].filter(Boolean).join(' ')} data-item-id={String(item.id)} data-order={TODO.items.orderKey(item)} id={`item-${item.id}`} tabindex={-1}>
      <ItemTick ctx={ctx} kind={TODO} itemId={item.id} done={done} canTick={canTick}
        label={ctx.t(done ? 'todo.mark_not_done' : 'todo.mark_done', { text: item.text })}
        state={ctx.t(done ? 'todo.state_done' : 'todo.state_open')} />{' '}
      {text}
      {item.due_date ? (
        <small class="due">
          {' '}{ctx.t('todo.due')} <CalendarDate date={item.due_date} />
        </small>
      ) : null}
      {overdue ? <strong class="badge overdue-badge">{ctx.t('todo.overdue')}</strong> : null}{' '}
      <WhoDidWhat ctx={ctx} item={item} timeZone={ctx.user!.timezone} />
      {canEdit ? (
        <ItemActions ctx={ctx} kind={TODO} itemId={item.id} name={item.text} />
      ) : null}
    </li>
  );
}

/** On /todo/: the caller's open items in lists they may still read. */
export function AssignedToMe({ ctx, items }: { ctx: ViewContext; items: AssignedItem[] }) {
  return (
    <section aria-labelledby="assigned">
      <h2 id="assigned">{ctx.t('todo.assigned_to_me')}</h2>
      {items.length ? (
        <ul class="assigned-items">
          {items.map((item) => (
            <li>
              {item.text}
              {item.due_date ? (
                <small class="due">
                  {' '}{ctx.t('todo.due')} <CalendarDate date={item.due_date} />
                </small>
              ) : null}{' '}
              <small>{ctx.t('todo.in')} <a href={`/todo/${item.list_id}/`}>{item.list_title}</a></small>
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">{ctx.t('todo.nothing_assigned')}</p>
      )}
    </section>
  );
}

/** A to-do list's page: its description, then its items with their counts, open ones first. */
export function TodoListPage({ ctx, page, share, item }: { ctx: ViewContext; page: ListPage<TodoListRow, TodoItemRow>; share?: FormState; item?: FormState }) {
  const { list, items, canEdit, canTick } = page;
  const group = list.group_name ? { name: list.group_name, permission: list.group_permission } : null;
  // The reader's today: an item due today is not overdue anywhere its reader still lives in today.
  const today = todayIn(ctx.user!.timezone);
  const open = items.filter((entry) => entry.is_done === 0).length;
  // Whom a new item may be assigned to: the list's readers (its group's members among them), for whoever may add one.
  const assignees = canTick ? page.readers : [];
  return (
    <ListPageFrame ctx={ctx} kind={TODO} page={page} group={group} labels={ITEM_LABELS} share={share} item={item}
      fields={({ values, errors }) => <ItemFields ctx={ctx} values={values} errors={errors} assignees={assignees} />}
      intro={list.description ? <p class="list-description">{list.description}</p> : null}>
      <h2 id="items">{ctx.t('lists.items')}<span data-live-counts>{items.length ? ` ${ctx.t('todo.counts', { open, items: items.length })}` : ''}</span></h2>
      {items.length ? (
        <ul class="todo-items">
          {items.map((entry) => <ItemRow ctx={ctx} item={entry} canTick={canTick} canEdit={canEdit} today={today} />)}
        </ul>
      ) : (
        <p class="empty">{ctx.t(canTick ? 'todo.empty_tick' : 'lists.empty_read')}</p>
      )}
    </ListPageFrame>
  );
}

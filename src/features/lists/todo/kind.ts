import { type Kysely, sql } from 'kysely';
import type { Database, TodoList } from '../../../db/schema.js';
import { identityKey } from '../../../platform/identity-key.js';
import { type ItemRow, type ListKind, orderPart } from '../kind.js';
import { listsRepository } from '../repository.js';
import type { TodoItemInput, TodoListInput } from './forms.js';
import { dueNoticeOnInsert, dueNoticeOnUpdate, dueNoticeReopened } from './notices.js';

// To-do lists: a description, and a group whose members read the list (and tick it, when the
// list's group permission says so), as a shopping list's; items with a text, an optional due
// date, an order of their own and an optional assignee, one of the people who may read the list
// (its owner, the people it is shared with, its group's members).

/** A list with the name of its group (null without one). */
export type TodoListRow = TodoList & { group_name: string | null };

/** An item as the pages show it: with whom it is assigned to (null when nobody, or deleted). */
export type TodoItemRow = ItemRow & { text: string; due_date: string | null; position: number; assignee_id: number | null; assignee_name: string | null };

/** The reader of the list with this username (matched as logins are), as a subquery of their id. */
export function readerNamed(db: Kysely<Database>, listId: number, username: string) {
  return listsRepository(db, TODO).readersQuery(listId).select('users.id').where('users.username_key', '=', identityKey(username));
}

const item = (column: string) => sql.ref(`todo_items.${column}`);

export const TODO: ListKind<TodoListRow, TodoItemRow, TodoListInput, TodoItemInput> = {
  name: 'todo',
  base: '/todo',
  noun: 'to-do list',
  plural: 'To-do lists',
  cardLabel: 'todo.card_label',
  navigation: 'nav.todo',
  tables: { lists: 'todo_lists', items: 'todo_items', shares: 'todo_list_shares' },
  group: { heading: 'todo.shelf_heading' },
  list: {
    values: (input) => ({ title: input.title, description: input.description, group_id: input.group, group_permission: input.group_permission }),
    columns: (db) => [db.selectFrom('groups').select('groups.name').where('groups.id', '=', sql.ref<number>('todo_lists.group_id')).as('group_name')],
    // Whom an item may be assigned to.
    readers: true,
  },
  items: {
    columns: (db) => [
      item('text').as('text'),
      item('due_date').as('due_date'),
      item('position').as('position'),
      item('assignee_id').as('assignee_id'),
      db.selectFrom('users as assignee').select('assignee.username').where('assignee.id', '=', sql.ref<number>('todo_items.assignee_id')).as('assignee_name'),
    ],
    // Open items by due date, the earliest first and the undated last; done items as added.
    order: () => [
      item('is_done'),
      sql`case when todo_items.is_done = 0 and todo_items.due_date is null then 1 else 0 end`,
      sql`case when todo_items.is_done = 0 then todo_items.due_date end`,
      item('position'),
      item('id'),
    ],
    orderKey: (row) => {
      const open = row.is_done === 0;
      return `${row.is_done}:${open && row.due_date === null ? 1 : 0}:${open ? (row.due_date ?? '') : ''}:${orderPart(row.position)}:${orderPart(row.id)}`;
    },
    // An assignee who may not read the list is left out (checks.item refuses that first, with a message).
    insert: (db, input, list) => ({
      text: sql<string>`${input.text}`,
      due_date: sql<string | null>`${input.due_date}`,
      position: sql<number>`coalesce((select max(todo_items.position) + 1 from todo_items where todo_items.list_id = ${list.ref}), 0)`,
      assignee_id: input.assignee === null ? sql<number | null>`cast(${null} as integer)` : readerNamed(db, list.id, input.assignee),
      ...dueNoticeOnInsert(input.due_date),
    }),
    update: (db, input, listId) => {
      const assignee = input.assignee === null ? null : readerNamed(db, listId, input.assignee);
      return { text: input.text, due_date: input.due_date, assignee_id: assignee, ...dueNoticeOnUpdate(input.due_date, assignee) };
    },
    // Its notices (notices.ts) start over when it is opened again.
    reopened: dueNoticeReopened,
    label: (entry) => entry.text,
  },
  summary: {
    columns: (db) => [
      db.selectFrom('todo_items').select((c) => c.fn.countAll<number>().as('n')).where('todo_items.list_id', '=', sql.ref<number>('todo_lists.id')).as('total'),
      db.selectFrom('todo_items').select((c) => c.fn.countAll<number>().as('n')).where('todo_items.list_id', '=', sql.ref<number>('todo_lists.id')).where('todo_items.is_done', '=', 0).as('open'),
    ],
    detail: (row) => (Number(row.total) === 0 ? { key: 'todo.detail_empty' } : { key: 'todo.detail', values: { open: Number(row.open), total: Number(row.total) } }),
  },
};

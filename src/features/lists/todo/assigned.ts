import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { listAccess } from '../access.js';
import { TODO } from './kind.js';

/** An open item assigned to someone, with its list, for "Assigned to me". */
export interface AssignedItem {
  id: number;
  text: string;
  due_date: string | null;
  list_id: number;
  list_title: string;
}

/**
 * Open items assigned to the user in lists they may still read (losing the list hides them),
 * those due first by date, then the undated, newest list item last.
 */
export function assignedTo(db: Kysely<Database>, userId: number, limit = 50): Promise<AssignedItem[]> {
  return db
    .selectFrom('todo_items')
    .innerJoin('todo_lists', 'todo_lists.id', 'todo_items.list_id')
    .select(['todo_items.id', 'todo_items.text', 'todo_items.due_date', 'todo_items.list_id', 'todo_lists.title as list_title'])
    .where('todo_items.assignee_id', '=', userId)
    .where('todo_items.is_done', '=', 0)
    .where('todo_items.list_id', 'in', listAccess(db, TODO).visibleLists(userId).select(sql.ref<number>('todo_lists.id').as('id')))
    .orderBy(sql`case when todo_items.due_date is null then 1 else 0 end`)
    .orderBy('todo_items.due_date')
    .orderBy('todo_items.id')
    .limit(limit)
    .execute();
}

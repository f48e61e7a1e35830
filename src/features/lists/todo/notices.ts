import { type Expression, type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { msgWith } from '../../../platform/i18n/index.js';
import type { Notifier } from '../../../services.js';

// What a to-do item's assignee (or, without one, its owner) is told, once each: "assigned to you"
// when the item is given to them by someone else, "due today" and "overdue" by the scheduler
// (due-notices.ts). The markers that make it once (migration 0029) are set back by what a person
// would expect to start them over: another due date, another assignee, the item opened again.

/** A new item's markers: with a date, the scheduler looks at it at once (it knows the zone); without, never. */
export function dueNoticeOnInsert(dueDate: string | null) {
  return { due_notice_at: sql<number | null>`cast(${dueDate === null ? null : 0} as bigint)` };
}

/**
 * An edit's markers, on the item's row before it: another due date or another assignee starts its
 * notices over (the new assignee is told it is theirs, then of its date); the same ones keep them.
 * `assignee` is the new assignee's id as the edit writes it (a subquery), or null for nobody.
 */
export function dueNoticeOnUpdate(dueDate: string | null, assignee: Expression<unknown> | null) {
  const assigneeSql = assignee === null ? sql`cast(null as integer)` : sql`(${assignee})`;
  const unchangedDate = sql`due_date is not distinct from cast(${dueDate} as text)`;
  const unchangedAssignee = sql`assignee_id is not distinct from ${assigneeSql}`;
  const kept = <T>(column: string, otherwise: Expression<T>) => sql<T>`case when ${unchangedDate} and ${unchangedAssignee} then ${sql.ref(column)} else ${otherwise} end`;
  return {
    due_notice: kept<number>('due_notice', sql`0`),
    due_notice_at: kept<number | null>('due_notice_at', sql`cast(${dueDate === null ? null : 0} as bigint)`),
    assignee_told_id: sql<number | null>`case when ${unchangedAssignee} then assignee_told_id else null end`,
  };
}

/** An item opened again (unticked) is told of its date again, as if new. */
export function dueNoticeReopened(): Record<string, Expression<unknown>> {
  return { due_notice: sql`0`, due_notice_at: sql`case when due_date is null then null else 0 end` };
}

/**
 * In the transaction of an item's change by `actorId`: when it has an assignee not yet told it is
 * theirs, marks them told and, unless they gave it to themself, tells them (and mails them, if they
 * chose so). One statement when nobody is to be told; the users told.
 */
export async function tellNewAssignee(db: Kysely<Database>, notifier: Notifier, actorId: number, itemId: number, now = Date.now()): Promise<number[]> {
  const row = await db
    .updateTable('todo_items')
    .set({ assignee_told_id: sql.ref('assignee_id') })
    .where('id', '=', itemId)
    .where('assignee_id', 'is not', null)
    .where(sql<boolean>`assignee_told_id is distinct from assignee_id`)
    .returning((eb) => [
      'assignee_id',
      'text',
      'list_id',
      eb.selectFrom('todo_lists').select('todo_lists.title').whereRef('todo_lists.id', '=', 'todo_items.list_id').as('list_title'),
      eb.selectFrom('users').select('users.username').where('users.id', '=', actorId).as('by'),
    ])
    .executeTakeFirst();
  if (!row || row.assignee_id === null || row.assignee_id === actorId) return [];
  await notifier.add(
    db,
    [row.assignee_id],
    { kind: 'todo.assigned', text: msgWith('todo.notice_assigned', { by: row.by ?? '', text: row.text, list: row.list_title ?? '' }), link: `/todo/${row.list_id}/`, mail: true },
    now,
  );
  return [row.assignee_id];
}

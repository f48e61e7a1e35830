import { type Kysely, sql } from 'kysely';

// Notices that people are told once (issue 56):
//
// - A to-do item's markers: whom it was last told to as "assigned to you" (`assignee_told_id`,
//   the assignee of that moment, so a new assignee is told and an unchanged one is not), what was
//   told of its due date (`due_notice`: 0 nothing, 1 "due today", 2 "overdue"), and when the
//   scheduler is to look at it next (`due_notice_at`, epoch ms; null: never). An edit of the date
//   or the assignee, and unticking, set them back (features/lists/todo/).
// - Each user's choice to be mailed those notices too (`mail_notifications`), off until they
//   turn it on: mail needs an address, which not every account has.
// - A notification that others of its kind merge into while unread (`merge_key`, '' for none):
//   "Olga shared 3 notes with Family", how many it stands for (`count`).
//
// Items already there are not told of the past: their assignees count as told, and an item whose
// date is before today (UTC) counts as told it is overdue; the rest are looked at once.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('todo_items').addColumn('assignee_told_id', 'integer').execute();
  await db.schema.alterTable('todo_items').addColumn('due_notice', 'smallint', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('todo_items').addColumn('due_notice_at', 'bigint').execute();
  // The scheduler's question, "which open items are to be looked at by now", on a small index.
  await db.schema
    .createIndex('todo_items_due_notice')
    .on('todo_items')
    .column('due_notice_at')
    .where(sql.ref('is_done'), '=', 0)
    .execute();
  const today = new Date().toISOString().slice(0, 10);
  await db.updateTable('todo_items').set({ assignee_told_id: sql.ref('assignee_id') }).where('assignee_id', 'is not', null).execute();
  await db.updateTable('todo_items').set({ due_notice: 2 }).where('due_date', '<', today).execute();
  await db.updateTable('todo_items').set({ due_notice_at: 0 }).where('due_date', '>=', today).where('is_done', '=', 0).execute();

  await db.schema.alterTable('users').addColumn('mail_notifications', 'smallint', (col) => col.notNull().defaultTo(0)).execute();

  await db.schema.alterTable('notifications').addColumn('merge_key', 'text', (col) => col.notNull().defaultTo('')).execute();
  await db.schema.alterTable('notifications').addColumn('count', 'integer', (col) => col.notNull().defaultTo(1)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notifications').dropColumn('count').execute();
  await db.schema.alterTable('notifications').dropColumn('merge_key').execute();
  await db.schema.alterTable('users').dropColumn('mail_notifications').execute();
  await db.schema.dropIndex('todo_items_due_notice').execute();
  await db.schema.alterTable('todo_items').dropColumn('due_notice_at').execute();
  await db.schema.alterTable('todo_items').dropColumn('due_notice').execute();
  await db.schema.alterTable('todo_items').dropColumn('assignee_told_id').execute();
}

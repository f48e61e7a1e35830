import { type Kysely, type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseForEachTest } from '../../../test/index.js';
import { migrateToLatest } from '../migrate.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

// An install with to-do items upgrades without telling anyone of the past: an item's assignee
// counts as told it is theirs, one due before today counts as told it is overdue, and the open
// ones due today or later are looked at once by the scheduler. Nobody is mailed until they ask;
// notifications stand for one each.
const before0029 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0029'));

let db: Kysely<Database>;
freshDatabaseForEachTest((fresh) => {
  db = fresh;
}, before0029);

async function user(username: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into users (username, username_key, username_skeleton, email, password, date_joined) values (${username}, ${username}, ${username}, '', 'x', 0) returning id`.execute(db);
  return rows[0]!.id;
}

async function item(listId: number, text: string, dueDate: string | null, assigneeId: number | null, done = 0): Promise<void> {
  await sql`insert into todo_items (list_id, text, due_date, is_done, position, created_at, assignee_id) values (${listId}, ${text}, ${dueDate}, ${done}, 0, 0, ${assigneeId})`.execute(db);
}

describe('0029_notices on an install with to-do items', () => {
  it('marks the past as told, leaves the rest to the scheduler, and goes back down', async () => {
    const owner = await user('olena');
    const helper = await user('bohdan');
    const { rows } = await sql<{ id: number }>`insert into todo_lists (owner_id, title, created_at, updated_at) values (${owner}, 'House', 0, 0) returning id`.execute(db);
    const listId = rows[0]!.id;
    await item(listId, 'past', '2001-01-01', helper);
    await item(listId, 'future', '2999-01-01', null);
    await item(listId, 'future, done', '2999-01-01', null, 1);
    await item(listId, 'undated', null, helper);
    await sql`insert into notifications (user_id, kind, text, created_at) values (${owner}, 'reminder', 'Reminder: x', 0)`.execute(db);
    await migrateToLatest(db);

    const items = await db.selectFrom('todo_items').select(['text', 'assignee_told_id', 'due_notice', 'due_notice_at']).orderBy('id').execute();
    expect(items).toEqual([
      { text: 'past', assignee_told_id: helper, due_notice: 2, due_notice_at: null },
      { text: 'future', assignee_told_id: null, due_notice: 0, due_notice_at: 0 },
      { text: 'future, done', assignee_told_id: null, due_notice: 0, due_notice_at: null },
      { text: 'undated', assignee_told_id: helper, due_notice: 0, due_notice_at: null },
    ]);
    expect((await db.selectFrom('users').select('mail_notifications').execute()).map((row) => row.mail_notifications)).toEqual([0, 0]);
    expect(await db.selectFrom('notifications').select(['merge_key', 'count']).execute()).toEqual([{ merge_key: '', count: 1 }]);

    await (migrations['0029_notices'] as Migration).down!(db);
    const { rows: after } = await sql<Record<string, unknown>>`select * from todo_items order by id`.execute(db);
    expect(after).toHaveLength(4);
    expect(after[0]).not.toHaveProperty('due_notice');
    const { rows: notifications } = await sql<Record<string, unknown>>`select * from notifications`.execute(db);
    expect(notifications[0]).not.toHaveProperty('merge_key');
  });
});

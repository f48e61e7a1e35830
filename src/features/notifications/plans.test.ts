import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createUser, type TestApp } from '../../../test/index.js';
import { unreadCountQuery } from './notifications.js';

// Every page's session statement counts the caller's unread notifications: it must read the
// partial index of unread rows and stop at the cap, never the user's read ones or the table.

let t: TestApp;
let reader: User;

beforeAll(async () => {
  t = await buildTestApp();
  reader = await createUser(t.db);
  const other = await createUser(t.db);
  for (const user of [reader, other]) {
    await t.db
      .insertInto('notifications')
      .values(Array.from({ length: 2000 }, (_, i) => ({ user_id: user.id, kind: 'test', text: `n${i}`, link: '', created_at: i, read_at: i % 10 === 0 ? null : i })))
      .execute();
  }
  await sql`analyze`.execute(t.db);
});
afterAll(() => t.close());

async function plan(query: CompiledQuery): Promise<string> {
  if (t.database.dialect === 'sqlite') {
    const explained = await t.db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` } as CompiledQuery<{ detail: string }>);
    return explained.rows.map((row) => row.detail).join('\n');
  }
  return t.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const explained = await trx.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}` } as CompiledQuery<{ 'QUERY PLAN': string }>);
    return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

describe('the unread count', () => {
  it('reads the partial index of unread rows', async () => {
    const text = await plan(unreadCountQuery(t.db, sql.val(reader.id)).compile());
    expect(text).toMatch(/notifications_unread/);
    expect(text).not.toMatch(/SCAN notifications\b(?! USING)/);
  });

  it('counts up to 100 unread', async () => {
    expect((await unreadCountQuery(t.db, sql.val(reader.id)).executeTakeFirstOrThrow()).n).toBe(100);
  });
});

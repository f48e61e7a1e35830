import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../../db/schema.js';
import { buildTestApp, createGroup, createUser, type TestApp } from '../../../../test/index.js';
import { unreadChatTotalQuery, unreadInGroupQuery } from './reads.js';

// Every page reads the unread total with its session: it must read the messages past the mark off
// the (group_id, id) index, never scan a group's whole history. The plans are pinned here (EXPLAIN).

let t: TestApp;
let reader: User;
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  reader = await createUser(t.db);
  const writer = await createUser(t.db);
  group = await createGroup(t.db, writer, [reader]);
  // Many groups of many messages, as on a busy instance: the reader's group is one of them.
  const others: Group[] = [];
  for (let i = 0; i < 49; i += 1) others.push(await createGroup(t.db, writer));
  const now = Date.now();
  for (const each of [...others, group]) {
    const rows = Array.from({ length: 100 }, (_, i) => ({ group_id: each.id, author_id: writer.id, content: `m${i}`, created_at: now + i }));
    await t.db.insertInto('chat_messages').values(rows).execute();
  }
  const newest = await t.db.selectFrom('chat_messages').select((eb) => eb.fn.max('id').as('id')).where('group_id', '=', group.id).executeTakeFirstOrThrow();
  await t.db.insertInto('chat_reads').values({ user_id: reader.id, group_id: group.id, last_read_message_id: Number(newest.id) - 10 }).execute();
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

describe('unread count plans', () => {
  it('the total reads each group’s messages from the (group_id, id) index', async () => {
    const text = await plan(unreadChatTotalQuery(t.db, sql.val(reader.id)).compile());
    expect(text).toMatch(/chat_messages_group_id/);
    expect(text).not.toMatch(/SCAN chat_messages\b(?! USING)|Seq Scan on chat_messages/);
    const row = await unreadChatTotalQuery(t.db, sql.val(reader.id)).executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(10);
  });

  it('a group’s count does the same', async () => {
    const query = t.db.selectFrom('groups').select((eb) => unreadInGroupQuery(t.db, reader.id, eb.ref('groups.id')).as('unread')).where('groups.id', '=', group.id);
    const text = await plan(query.compile());
    expect(text).toMatch(/chat_messages_group_id/);
    expect(text).not.toMatch(/SCAN chat_messages\b(?! USING)|Seq Scan on chat_messages/);
    expect(Number((await query.executeTakeFirstOrThrow()).unread)).toBe(10);
  });
});

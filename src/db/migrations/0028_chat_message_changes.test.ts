import { type Kysely, type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseForEachTest } from '../../../test/index.js';
import { migrateToLatest } from '../migrate.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

// An install with chat history upgrades: every message stays as it was, neither edited nor
// deleted, and the migration goes back down keeping them.
const before0028 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0028'));

let db: Kysely<Database>;
freshDatabaseForEachTest((fresh) => {
  db = fresh;
}, before0028);

describe('0028_chat_message_changes on an install with chat history', () => {
  it('adds edited_at and deleted_at, empty on every message, and goes back down', async () => {
    const { rows: users } = await sql<{ id: number }>`insert into users (username, username_key, email, password, date_joined) values ('Ann', 'ann', '', 'x', 0) returning id`.execute(db);
    const ann = users[0]!.id;
    const { rows: groups } = await sql<{ id: number }>`insert into groups (name, name_key, owner_id, created_at) values ('Home', 'home', ${ann}, 0) returning id`.execute(db);
    const home = groups[0]!.id;
    await sql`insert into chat_messages (group_id, author_id, content, created_at) values (${home}, ${ann}, 'hello', 1000), (${home}, ${ann}, 'again', 2000)`.execute(db);
    await migrateToLatest(db);

    const messages = await db.selectFrom('chat_messages').select(['content', 'created_at', 'edited_at', 'deleted_at']).orderBy('id').execute();
    expect(messages.map((message) => ({ ...message, created_at: Number(message.created_at) }))).toEqual([
      { content: 'hello', created_at: 1000, edited_at: null, deleted_at: null },
      { content: 'again', created_at: 2000, edited_at: null, deleted_at: null },
    ]);

    await (migrations['0028_chat_message_changes'] as Migration).down!(db);
    const { rows } = await sql<Record<string, unknown>>`select * from chat_messages order by id`.execute(db);
    expect(rows.map((row) => row.content)).toEqual(['hello', 'again']);
    expect(Object.keys(rows[0]!)).not.toContain('edited_at');
    expect(Object.keys(rows[0]!)).not.toContain('deleted_at');
  });
});

import { type Kysely, type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseForEachTest } from '../../../test/index.js';
import { migrateToLatest } from '../migrate.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

// An install with to-do lists upgrades: every list is in no group, `read` for a group it may be
// given later, and its shares stay as they were (those "share with a group's members" made
// included); a group deleted later leaves its lists with their owners, in no group.
const before0030 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0030'));

let db: Kysely<Database>;
freshDatabaseForEachTest((fresh) => {
  db = fresh;
}, before0030);

async function user(username: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into users (username, username_key, username_skeleton, email, password, date_joined) values (${username}, ${username.toLowerCase()}, ${username.toLowerCase()}, '', 'x', 0) returning id`.execute(db);
  return rows[0]!.id;
}

describe('0030_todo_list_groups on an install with to-do lists', () => {
  it('puts every list in no group, keeps its shares, lets a list join a group that takes it along when deleted, and goes back down', async () => {
    const [olena, bob] = [await user('Olena'), await user('Bob')];
    const { rows: lists } = await sql<{ id: number }>`insert into todo_lists (owner_id, title, created_at, updated_at) values (${olena}, 'Chores', 0, 0), (${olena}, 'Garden', 0, 0) returning id`.execute(db);
    const [chores, garden] = lists.map((row) => row.id) as [number, number];
    await sql`insert into todo_list_shares (list_id, user_id, permission) values (${chores}, ${bob}, 'tick')`.execute(db);
    await migrateToLatest(db);

    expect(await db.selectFrom('todo_lists').select(['title', 'group_id', 'group_permission']).orderBy('id').execute()).toEqual([
      { title: 'Chores', group_id: null, group_permission: 'read' },
      { title: 'Garden', group_id: null, group_permission: 'read' },
    ]);
    expect(await db.selectFrom('todo_list_shares').select(['list_id', 'user_id', 'permission']).execute()).toEqual([{ list_id: chores, user_id: bob, permission: 'tick' }]);

    const { rows: groups } = await sql<{ id: number }>`insert into groups (name, name_key, owner_id, created_at) values ('Flat', 'flat', ${olena}, 0) returning id`.execute(db);
    const groupId = groups[0]!.id;
    await db.updateTable('todo_lists').set({ group_id: groupId, group_permission: 'tick' }).where('id', '=', garden).execute();
    // Only a group that exists.
    await expect(db.updateTable('todo_lists').set({ group_id: groupId + 1000 }).where('id', '=', chores).execute()).rejects.toThrow();
    await db.deleteFrom('groups').where('id', '=', groupId).execute();
    expect(await db.selectFrom('todo_lists').select(['owner_id', 'group_id']).where('id', '=', garden).executeTakeFirst()).toEqual({ owner_id: olena, group_id: null });

    await (migrations['0030_todo_list_groups'] as Migration).down!(db);
    const { rows } = await sql<Record<string, unknown>>`select * from todo_lists order by id`.execute(db);
    expect(rows).toHaveLength(2);
    expect(rows[0]).not.toHaveProperty('group_id');
    expect(rows[0]).not.toHaveProperty('group_permission');
  });
});

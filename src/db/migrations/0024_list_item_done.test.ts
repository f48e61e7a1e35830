import { type Kysely, type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseForEachTest } from '../../../test/index.js';
import { migrateToLatest } from '../migrate.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

// An install with shopping items (bought and not) upgrades: the columns take the to-do items'
// names, and every row keeps its values and its list.
const before0024 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0024'));

let db: Kysely<Database>;
freshDatabaseForEachTest((fresh) => {
  db = fresh;
}, before0024);

describe('0024_list_item_done on an install with shopping items', () => {
  it('renames bought to done, keeping every value, and goes back down', async () => {
    const { rows: users } = await sql<{ id: number }>`insert into users (username, username_key, email, password, date_joined) values ('Ann', 'ann', '', 'x', 0) returning id`.execute(db);
    const ann = users[0]!.id;
    const { rows: lists } = await sql<{ id: number }>`insert into shopping_lists (owner_id, title, created_at, updated_at) values (${ann}, 'Shop', 0, 0) returning id`.execute(db);
    const list = lists[0]!.id;
    await sql`insert into shopping_items (list_id, name, created_at, is_bought, bought_by, bought_at) values (${list}, 'Milk', 1, 1, ${ann}, 500), (${list}, 'Bread', 2, 0, null, null)`.execute(db);
    await migrateToLatest(db);

    const items = await db.selectFrom('shopping_items').select(['list_id', 'name', 'is_done', 'done_by', 'done_at']).orderBy('id').execute();
    expect(items.map((item) => ({ ...item, done_at: item.done_at === null ? null : Number(item.done_at) }))).toEqual([
      { list_id: list, name: 'Milk', is_done: 1, done_by: ann, done_at: 500 },
      { list_id: list, name: 'Bread', is_done: 0, done_by: null, done_at: null },
    ]);

    await (migrations['0024_list_item_done'] as Migration).down!(db);
    const { rows } = await sql<{ name: string; is_bought: number }>`select name, is_bought from shopping_items order by id`.execute(db);
    expect(rows.map((row) => [row.name, Number(row.is_bought)])).toEqual([['Milk', 1], ['Bread', 0]]);
  });
});

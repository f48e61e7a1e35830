import { type Kysely, type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseForEachTest } from '../../../test/index.js';
import { migrateToLatest } from '../migrate.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

// An install with shopping lists upgrades: each list takes its owner's currency of that moment
// (what its owner saw), '' where the owner had none; a list made after it starts with ''.
const before0027 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0027'));

let db: Kysely<Database>;
freshDatabaseForEachTest((fresh) => {
  db = fresh;
}, before0027);

async function user(username: string, currency: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into users (username, username_key, username_skeleton, email, password, date_joined, currency) values (${username}, ${username.toLowerCase()}, ${username.toLowerCase()}, '', 'x', 0, ${currency}) returning id`.execute(db);
  return rows[0]!.id;
}

async function list(ownerId: number, title: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into shopping_lists (owner_id, title, created_at, updated_at) values (${ownerId}, ${title}, 0, 0) returning id`.execute(db);
  return rows[0]!.id;
}

describe('0027_shopping_list_currency on an install with shopping lists', () => {
  it("gives each list its owner's currency, '' without one, and goes back down", async () => {
    const olena = await user('Olena', 'UAH');
    const bob = await user('Bob', '');
    await list(olena, 'Market');
    await list(olena, 'Pharmacy');
    await list(bob, 'Hardware');
    await migrateToLatest(db);

    const lists = await db.selectFrom('shopping_lists').select(['title', 'currency']).orderBy('id').execute();
    expect(lists).toEqual([
      { title: 'Market', currency: 'UAH' },
      { title: 'Pharmacy', currency: 'UAH' },
      { title: 'Hardware', currency: '' },
    ]);
    // Later changes to the owner's currency leave the list's alone; a list inserted without one has none.
    await db.updateTable('users').set({ currency: 'EUR' }).where('id', '=', olena).execute();
    await db.insertInto('shopping_lists').values({ owner_id: olena, title: 'New', created_at: 1, updated_at: 1 }).execute();
    const after = await db.selectFrom('shopping_lists').select(['title', 'currency']).where('owner_id', '=', olena).orderBy('id').execute();
    expect(after.map((row) => row.currency)).toEqual(['UAH', 'UAH', '']);

    await (migrations['0027_shopping_list_currency'] as Migration).down!(db);
    const { rows } = await sql<Record<string, unknown>>`select * from shopping_lists order by id`.execute(db);
    expect(rows).toHaveLength(4);
    expect(rows[0]).not.toHaveProperty('currency');
  });
});

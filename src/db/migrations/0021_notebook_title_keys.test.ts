import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseForEachTest } from '../../../test/index.js';
import { isUniqueViolation } from '../errors.js';
import { migrateToLatest } from '../migrate.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

// An install that ran every migration before 0021 and holds notebooks, then upgrades.
const before0021 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0021'));

let db: Kysely<Database>;
freshDatabaseForEachTest((fresh) => {
  db = fresh;
}, before0021);

async function user(name: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into users (username, username_key, email, password, date_joined) values (${name}, ${name.toLowerCase()}, '', 'x', 0) returning id`.execute(db);
  return rows[0]!.id;
}
async function oldNotebook(title: string, ownerId: number): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into notebooks (title, owner_id, created_at, updated_at) values (${title}, ${ownerId}, 0, 0) returning id`.execute(db);
  return rows[0]!.id;
}

describe('0021_notebook_title_keys on an install with notebooks', () => {
  it('fills every key, renames later duplicates per owner deterministically, and makes titles unique per owner', async () => {
    const ann = await user('Ann');
    const bob = await user('Bob');
    const recipes = await oldNotebook('Recipes', ann);
    const lower = await oldNotebook('recipes', ann);
    const wide = await oldNotebook('ＲＥＣＩＰＥＳ', ann);
    const taken = await oldNotebook('Recipes (2)', ann); // its key was given away first (ids in order): it is renamed in turn
    const bobs = await oldNotebook('recipes', bob);
    const blank = await oldNotebook('\u200b', bob);
    await migrateToLatest(db);

    expect(await db.selectFrom('notebooks').select(['id', 'title', 'title_key']).orderBy('id').execute()).toEqual([
      { id: recipes, title: 'Recipes', title_key: 'recipes' },
      { id: lower, title: 'recipes (2)', title_key: 'recipes (2)' },
      { id: wide, title: 'ＲＥＣＩＰＥＳ (3)', title_key: 'recipes (3)' },
      { id: taken, title: 'Recipes (2) (2)', title_key: 'recipes (2) (2)' },
      { id: bobs, title: 'recipes', title_key: 'recipes' },
      { id: blank, title: 'Notebook', title_key: 'notebook' },
    ]);
    const refused = await db.insertInto('notebooks').values({ title: 'RECIPES', title_key: 'recipes', owner_id: ann, created_at: 0, updated_at: 0 }).execute().then(() => null, (error: unknown) => error);
    expect(isUniqueViolation(refused)).toBe(true);
    await expect(sql`insert into notebooks (title, owner_id, created_at, updated_at) values ('x', ${bob}, 0, 0)`.execute(db)).rejects.toThrow(/title_key/);
  });
});

import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Database } from '../src/db/schema.js';
import { SessionStore, sessionAuthHash } from '../src/platform/chain/session.js';
import { BENCH_SECRET, scratch, startApp } from './lib.js';
import { compareWithBare } from './rounds.js';
import { identityKey } from '../src/platform/identity-key.js';

// To-do and shopping pages on a database with other people's lists in it (so that the
// visibility queries have rows to skip), against bare node:http serving the same bytes.

const CSRF = 'BenchCsrfSecret0123456789abcdefg';
const OTHER_USERS = 1000;
const LISTS_PER_USER = 5;
const ITEMS_PER_LIST = 5;
const ITEMS_ON_PAGE = 50;

async function insertUser(db: Kysely<Database>, username: string) {
  return db.insertInto('users').values({ username, username_key: identityKey(username), email: '', password: 'unusable', date_joined: Date.now() }).returningAll().executeTakeFirstOrThrow();
}

export async function seed(databaseUrl: string) {
  const database = openDatabase(databaseUrl);
  await migrateToLatest(database.db);
  const now = Date.now();
  const ids = await database.db.transaction().execute(async (db) => {
    const me = await insertUser(db, 'bench');
    const group = await db.insertInto('groups').values({ name: 'bench group', name_key: identityKey('bench group'), owner_id: me.id, created_at: now }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('group_members').values({ group_id: group.id, user_id: me.id, joined_at: now }).execute();
    for (let u = 0; u < OTHER_USERS; u++) {
      const other = await insertUser(db, `other${u}`);
      for (let l = 0; l < LISTS_PER_USER; l++) {
        const todo = await db.insertInto('todo_lists').values({ owner_id: other.id, title: `Todo ${u}.${l}`, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
        const shop = await db
          .insertInto('shopping_lists')
          // Every hundredth user's lists are shared with the bench user, directly or through the group.
          .values({ owner_id: other.id, title: `Shop ${u}.${l}`, group_id: u % 100 === 0 ? group.id : null, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (u % 100 === 1) await db.insertInto('todo_list_shares').values({ list_id: todo.id, user_id: me.id }).execute();
        const items = Array.from({ length: ITEMS_PER_LIST }, (_, i) => i);
        await db.insertInto('todo_items').values(items.map((i) => ({ list_id: todo.id, text: `Task ${i}`, position: i, created_at: now }))).execute();
        await db.insertInto('shopping_items').values(items.map((i) => ({ list_id: shop.id, name: `Thing ${i}`, estimated_price_cents: 100 + i, created_at: now }))).execute();
      }
    }
    const todo = await db.insertInto('todo_lists').values({ owner_id: me.id, title: 'Bench to-do', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    const shop = await db.insertInto('shopping_lists').values({ owner_id: me.id, title: 'Bench shop', group_id: group.id, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    const items = Array.from({ length: ITEMS_ON_PAGE }, (_, i) => i);
    await db
      .insertInto('todo_items')
      .values(items.map((i) => ({ list_id: todo.id, text: `Bench task ${i}`, due_date: i % 3 ? null : '2020-01-01', is_done: i % 4 === 0 ? 1 : 0, position: i, created_at: now })))
      .execute();
    await db
      .insertInto('shopping_items')
      .values(items.map((i) => ({ list_id: shop.id, name: `Bench thing ${i}`, quantity_milli: 1500, unit: 'kg', estimated_price_cents: 99 + i, created_at: now })))
      .execute();
    return { me, todoId: todo.id, shopId: shop.id };
  });
  const session = await new SessionStore(database.db, 86_400).create(ids.me.id, sessionAuthHash(BENCH_SECRET, ids.me.password), 'bench');
  await database.close();
  return { cookie: `sessionid=${session.key}; csrftoken=${CSRF}`, todoId: ids.todoId, shopId: ids.shopId };
}

export async function run(): Promise<void> {
  const { dir, cleanup } = scratch();
  const databaseUrl = `sqlite:${join(dir, 'bench.sqlite3')}`;
  const started = Date.now();
  const { cookie, todoId, shopId } = await seed(databaseUrl);
  const lists = OTHER_USERS * LISTS_PER_USER;
  console.log(`\n## Lists: ${lists} to-do and ${lists} shopping lists of ${OTHER_USERS} other users, seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`   (the bench user reads 50 to-do and 50 shopping lists of theirs; list pages have ${ITEMS_ON_PAGE} items; 32 connections, 10 s each)`);
  const app = await startApp({ DATABASE_URL: databaseUrl });
  try {
    await compareWithBare('GET /todo/ (index)', app, '/todo/', { cookie }, dir);
    await compareWithBare(`GET /todo/${todoId}/ (${ITEMS_ON_PAGE} items)`, app, `/todo/${todoId}/`, { cookie }, dir);
    await compareWithBare('GET /shopping/ (index)', app, '/shopping/', { cookie }, dir);
    await compareWithBare(`GET /shopping/${shopId}/ (${ITEMS_ON_PAGE} items, total)`, app, `/shopping/${shopId}/`, { cookie }, dir);
  } finally {
    await app.stop();
    cleanup();
  }
}

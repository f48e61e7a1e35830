import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildTestApp, createGroup, createNote, createTag, createTestDatabase, createUser, loggedIn, type TestApp, type TestDatabase } from '../../test/index.js';
import { type DatabaseHandle, openDatabase } from './database.js';
import { PLAN_FOR_VALUES, PREPARED_PER_CONNECTION } from './pg-prepared.js';
import type { Database } from './schema.js';
import { isOneOf } from './id-lists.js';

// On PostgreSQL an unnamed statement is parsed and planned again each time it is sent; the app's
// statements are named, so each connection prepares them once. Their number per connection is
// bounded, and their texts do not grow with the number of ids they are given.

/** The statements this connection keeps prepared (PostgreSQL; none on SQLite). */
async function preparedOn(database: DatabaseHandle): Promise<string[]> {
  if (database.dialect !== 'postgres') return [];
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements where not from_sql`.execute(database.db);
  return rows.map((row) => row.statement);
}

describe('prepared statements', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ PAGE_CACHE_MB: '0' });
  });
  afterAll(() => t.close());

  it('pages are served from statements prepared once per connection (PostgreSQL), the same number after more loads', async () => {
    const { user, browser } = await loggedIn(t);
    const friend = await createUser(t.db);
    const group = await createGroup(t.db, friend, [user]);
    const note = await createNote(t.db, friend, { group_id: group.id, tags: [await createTag(t.db, friend)] });
    for (const path of ['/notes/', `/notes/${note.id}/`]) expect((await browser.get(path)).statusCode).toBe(200);
    const first = await preparedOn(t.database);
    for (let i = 0; i < 5; i += 1) {
      for (const path of ['/notes/', `/notes/${note.id}/`]) expect((await browser.get(path)).statusCode).toBe(200);
    }
    const after = await preparedOn(t.database);
    if (t.database.dialect === 'postgres') {
      expect(after.some((text) => text.includes('"sessions"."session_key"'))).toBe(true);
      expect(after.some((text) => text.includes('from "notes"'))).toBe(true);
      expect(after.length).toBe(first.length);
    }
  });

  it('a list of ids is one parameter on PostgreSQL: the text is the same for 1 and 50 ids, and the rows are right', async () => {
    const owner = await createUser(t.db);
    const notes = [];
    for (let i = 0; i < 50; i += 1) notes.push(await createNote(t.db, owner));
    const ids = notes.map((note) => note.id);
    const query = (some: number[]) => t.db.selectFrom('notes').select('id').where((eb) => isOneOf(t.db, eb.ref('notes.id'), some)).orderBy('id');
    for (const some of [[], ids.slice(0, 1), ids]) expect((await query(some).execute()).map((row) => row.id)).toEqual(some);
    const [one, fifty] = [query(ids.slice(0, 1)).compile(), query(ids).compile()];
    if (t.database.dialect === 'postgres') {
      expect(fifty.sql).toBe(one.sql);
      expect(fifty.parameters).toHaveLength(1);
    } else {
      expect(fifty.parameters).toHaveLength(50);
    }
  });
});

describe('prepared statements keep their plans', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Pages kept (the note page's session statement then reads the note's token with it), and
    // one connection, so that the statements prepared and their plans are all on the one asked.
    t = await buildTestApp({ DATABASE_POOL_SIZE: '1' });
  });
  afterAll(() => t.close());

  it('a note page asked for one at a time is not planned again each time: PostgreSQL keeps the session statement’s generic plan', async () => {
    const { user, browser } = await loggedIn(t);
    const friend = await createUser(t.db);
    const group = await createGroup(t.db, friend, [user]);
    const note = await createNote(t.db, friend, { group_id: group.id, title: 'Planned once' });
    const pages = 12;
    for (let i = 0; i < pages; i += 1) {
      const page = await browser.get(`/notes/${note.id}/`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Planned once');
    }
    if (t.database.dialect !== 'postgres') return;
    // The session statement that read the note's token (its group's members) with the session (noteTokenColumn).
    const { rows } = await sql<{ generic_plans: string; custom_plans: string }>`
      select generic_plans, custom_plans from pg_prepared_statements
      where not from_sql and statement like '%"sessions"."session_key"%' and statement like '%as "members"%'`.execute(t.db);
    expect(rows).toHaveLength(1);
    // PostgreSQL plans a prepared statement for its values five times before it weighs the generic plan.
    expect(Number(rows[0]!.custom_plans)).toBeLessThanOrEqual(5);
    expect(Number(rows[0]!.generic_plans)).toBeGreaterThanOrEqual(pages - 5);
  });
});

describe('prepared statements per connection', () => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = openDatabase(testDb.url, { poolSize: 1 });
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('a connection prepares a statement once, at most PREPARED_PER_CONNECTION of them, and sends any further text unnamed', async () => {
    for (let i = 0; i < 3; i += 1) {
      const { rows } = await sql<{ value: number }>`select cast(${i} as integer) + 1 as value`.execute(database.db);
      expect(rows).toEqual([{ value: i + 1 }]);
    }
    if (database.dialect === 'postgres') expect(await preparedOn(database)).toEqual(['select cast($1 as integer) + 1 as value']);
    for (let n = 0; n < PREPARED_PER_CONNECTION + 20; n += 1) {
      const { rows } = await sql<{ value: number }>`select cast(${n} as integer) + ${sql.lit(n)} as value`.execute(database.db);
      expect(rows).toEqual([{ value: 2 * n }]);
    }
    // Statements still run in a transaction, and DDL (never named) too.
    await database.db.transaction().execute(async (trx) => {
      await sql`create table scratch (id integer primary key)`.execute(trx);
      await sql`insert into scratch (id) values (${1})`.execute(trx);
    });
    expect((await sql<{ id: number }>`select id from scratch where id = ${1}`.execute(database.db)).rows).toEqual([{ id: 1 }]);
    if (database.dialect === 'postgres') expect((await preparedOn(database)).length).toBe(PREPARED_PER_CONNECTION);
  });

  it('a connection opens with its settings: SQLite in WAL, synchronous NORMAL, with foreign keys and a busy timeout; PostgreSQL with commits that do not wait for the WAL flush, unless DATABASE_URL says otherwise', async () => {
    if (database.dialect === 'sqlite') {
      const pragma = async (name: string) => Object.values((await sql<Record<string, unknown>>`pragma ${sql.raw(name)}`.execute(database.db)).rows[0]!)[0];
      // synchronous 1 is NORMAL: in WAL, a commit is not flushed to disk until a checkpoint.
      expect([await pragma('journal_mode'), await pragma('synchronous'), await pragma('foreign_keys'), await pragma('busy_timeout')]).toEqual(['wal', 1, 1, 5000]);
      return;
    }
    const settings = async (handle: DatabaseHandle) =>
      (await sql<{ commit: string }>`select current_setting('synchronous_commit') as commit`.execute(handle.db)).rows[0];
    expect(await settings(database)).toEqual({ commit: 'off' });
    const own = openDatabase(`${testDb.url}?options=${encodeURIComponent('-c synchronous_commit=on')}`, { poolSize: 1 });
    onTestFinished(() => own.close());
    expect(await settings(own)).toEqual({ commit: 'on' });
  });

  it('a statement marked PLAN_FOR_VALUES is never prepared: planned for its values each time', async () => {
    const fresh = openDatabase(testDb.url, { poolSize: 1 });
    onTestFinished(() => fresh.close());
    for (let i = 0; i < 3; i += 1) {
      const { rows } = await sql<{ value: number }>`select ${sql.raw(PLAN_FOR_VALUES)} cast(${i} as integer) * 2 as value`.execute(fresh.db);
      expect(rows).toEqual([{ value: 2 * i }]);
    }
    await sql`select cast(${1} as integer) as plain`.execute(fresh.db);
    if (fresh.dialect === 'postgres') expect(await preparedOn(fresh)).toEqual(['select cast($1 as integer) as plain']);
  });

  it('a table changed by another instance (a migration) does not break the statements prepared here', async () => {
    // A connection of its own: the test above used up this one's names.
    const fresh = openDatabase(testDb.url, { poolSize: 1 });
    onTestFinished(() => fresh.close());
    await sql`create table widened (id integer primary key, a integer)`.execute(fresh.db);
    await sql`insert into widened (id, a) values (${1}, ${2})`.execute(fresh.db);
    const read = (db: Kysely<Database> = fresh.db) => db.selectFrom('widened' as never).selectAll().where(sql.ref('id'), '=', 1).execute();
    for (let i = 0; i < 2; i += 1) expect(await read()).toEqual([{ id: 1, a: 2 }]);
    const other = openDatabase(testDb.url, { poolSize: 1 });
    try {
      await sql`alter table widened add column b integer`.execute(other.db);
    } finally {
      await other.close();
    }
    expect(await read()).toEqual([{ id: 1, a: 2, b: null }]);
    // In a transaction PostgreSQL's refusal aborts it, once; the statement works from then on.
    const readAll = (db: Kysely<Database>) => db.selectFrom('widened' as never).selectAll().where(sql.ref('id'), '>', 0).execute();
    for (let i = 0; i < 2; i += 1) expect(await readAll(fresh.db)).toEqual([{ id: 1, a: 2, b: null }]);
    const again = openDatabase(testDb.url, { poolSize: 1 });
    try {
      await sql`alter table widened add column c integer`.execute(again.db);
    } finally {
      await again.close();
    }
    const first = await fresh.db.transaction().execute((trx) => readAll(trx)).then(() => 'ran', () => 'refused');
    expect(first).toBe(fresh.dialect === 'postgres' ? 'refused' : 'ran');
    expect(await fresh.db.transaction().execute((trx) => readAll(trx))).toEqual([{ id: 1, a: 2, b: null, c: null }]);
  });
});

import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, createTestDatabase, createToken, createUser, TestBrowser, testConfig } from '../../test/index.js';
import { buildApp } from '../app.js';
import { type DatabaseHandle, openDatabase, sqliteFile } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { DATABASE_BUSY_RETRY_SECONDS } from './error-handler.js';

// A database too busy to answer within its bound is a 503 with Retry-After, not a 500, and the
// request changed nothing. Busy for real: on SQLite another connection holds the write lock
// (another worker, instance or CLI would); on PostgreSQL the test holds the app's one connection.

/** How long the app's statements wait for the lock or a connection here (5 s and 10 s as served). */
const WAIT_MS = 300;

interface BusyApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  url: string;
  close(): Promise<void>;
}

let t: BusyApp | undefined;

afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function busyApp(): Promise<BusyApp> {
  const testDb = await createTestDatabase();
  const database = openDatabase(testDb.url, { poolSize: 1, writeLockWaitMs: WAIT_MS, connectionWaitMs: WAIT_MS });
  await migrateToLatest(database.db);
  const app = await buildApp(testConfig({ DATABASE_URL: testDb.url }), { database });
  await app.ready();
  return {
    app,
    database,
    url: testDb.url,
    async close() {
      await app.close();
      await database.close();
      await testDb.drop();
    },
  };
}

/** Runs `during` while the app's database is too busy for a write. */
async function whileBusy<T>(busy: BusyApp, during: () => Promise<T>): Promise<T> {
  const file = sqliteFile(busy.url);
  if (file) {
    const other = new SQLite(file);
    other.exec('begin immediate');
    try {
      return await during();
    } finally {
      other.exec('rollback');
      other.close();
    }
  }
  return busy.database.db.connection().execute(async (held) => {
    await sql`select 1`.execute(held);
    return during();
  });
}

const countNotes = async (busy: BusyApp) => Number((await busy.database.db.selectFrom('notes').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('a database too busy to answer in time', () => {
  it('refuses a form with a 503, Retry-After and a page that says so; nothing is saved, and the same form saves once it is free', async () => {
    t = await busyApp();
    const user = await createUser(t.database.db);
    const browser = new TestBrowser(t.app);
    await browser.login(user.username);
    const form = { title: 'Busy day', content: 'milk', priority: '1' };

    const refused = await whileBusy(t, () => browser.post('/notes/new/', form));
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(DATABASE_BUSY_RETRY_SECONDS));
    expect(refused.body).toContain('The database is very busy right now. Please try again in a few seconds.');
    expect(refused.body).not.toContain('Something went wrong on our side');
    expect(await countNotes(t)).toBe(0);

    const saved = await browser.post('/notes/new/', form);
    expect(saved.statusCode).toBe(302);
    expect(await countNotes(t)).toBe(1);
  });

  it('answers the API with 503, Retry-After and the code "unavailable"; nothing is saved', async () => {
    t = await busyApp();
    const user = await createUser(t.database.db);
    const api = new ApiClient(t.app, { token: await createToken(t.database.db, user) });

    const refused = await whileBusy(t, () => api.post('/api/v1/notes/', { title: 'Busy day' }));
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(DATABASE_BUSY_RETRY_SECONDS));
    expect(refused.data).toEqual({ error: { code: 'unavailable', message: 'The database is very busy right now. Please try again in a few seconds.' } });
    expect(await countNotes(t)).toBe(0);

    expect((await api.post('/api/v1/notes/', { title: 'Busy day' })).statusCode).toBe(201);
    expect(await countNotes(t)).toBe(1);
  });
});

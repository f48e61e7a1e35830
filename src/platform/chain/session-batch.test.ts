import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, QueryCounter, type TestApp } from '../../../test/index.js';
import { SessionStore, sessionAuthHash } from './session.js';
import type { RouteColumn } from './route-column.js';

// On PostgreSQL the sessions that pages ask for in one turn of the event loop are read in one
// statement (session-query.ts); each asker must still get its own session, its own route column's
// value and its own expiry. SQLite reads each alone.

let t: TestApp;
const counter = new QueryCounter();
let store: SessionStore;
const HOUR = 3600;
const postgres = () => t.database.dialect === 'postgres';

beforeAll(async () => {
  t = await buildTestApp();
  store = new SessionStore(t.db.withPlugin(counter), HOUR);
});
afterAll(() => t.close());

/** Users with a session each, made one after another (usernames made at once may collide). */
async function sessions(count: number, lifetime = HOUR, now = Date.now()) {
  const made = [];
  for (let i = 0; i < count; i += 1) {
    const user = await createUser(t.db);
    const { key } = await new SessionStore(t.db, lifetime).create(user.id, sessionAuthHash(t.config.secretKey, user.password), 'test', now);
    made.push({ user, key });
  }
  return made;
}

/** A route column whose value tells the argument and the user apart: argument * 1000 + user id. */
const tagging: RouteColumn = {
  argument: () => undefined,
  column: (_db, userId, argument) => sql<number>`cast(${argument} as integer) * 1000 + ${userId}`,
};

describe('sessions read at once', () => {
  it('gives each of four concurrent loads its own session, in one statement on PostgreSQL', async () => {
    const made = await sessions(4);
    const now = Date.now();
    let loaded: Awaited<ReturnType<SessionStore['load']>>[] = [];
    const statements = await counter.during(async () => {
      loaded = await Promise.all(made.map(({ key }) => store.load(key, now)));
    });
    expect(loaded.map((session) => session?.user.id)).toEqual(made.map(({ user }) => user.id));
    expect(loaded.map((session) => session?.key)).toEqual(made.map(({ key }) => key));
    expect(statements).toBe(postgres() ? 1 : 4);
  });

  it('on PostgreSQL, loads asked in later turns while a statement is out wait for it and go together in the next', async () => {
    const [first, ...later] = await sessions(4);
    const now = Date.now();
    // On PostgreSQL the route column holds each statement out for 200 ms: the three later turns come while the first is out.
    const slow: RouteColumn = postgres() ? { ...tagging, column: (db, userId, argument) => sql<number>`(select cast(${argument} as integer) * 1000 + ${userId} from pg_sleep(0.2))` } : tagging;
    let loaded: Awaited<ReturnType<SessionStore['load']>>[] = [];
    const statements = await counter.during(async () => {
      const asked = [store.load(first!.key, now, { column: slow, argument: 1 })];
      for (const { key } of later) {
        await new Promise((resolve) => setImmediate(resolve));
        asked.push(store.load(key, now, { column: slow, argument: 1 }));
      }
      loaded = await Promise.all(asked);
    });
    expect(loaded.map((session) => Number(session?.routeValue))).toEqual([first, ...later].map((made) => 1000 + made!.user.id));
    expect(statements).toBe(postgres() ? 2 : 4);
  });

  it('reads each session’s route with its own argument, also one session asked twice', async () => {
    const [a, b] = await sessions(2);
    const now = Date.now();
    const asks = [
      { key: a!.key, argument: 7, user: a!.user.id },
      { key: b!.key, argument: 8, user: b!.user.id },
      { key: a!.key, argument: 9, user: a!.user.id },
    ];
    const loaded = await Promise.all(asks.map(({ key, argument }) => store.load(key, now, { column: tagging, argument })));
    expect(loaded.map((session) => Number(session?.routeValue))).toEqual(asks.map(({ argument, user }) => argument * 1000 + user));
  });

  it('ends a session at its expiry for the asker whose time is past it, whoever asks with it', async () => {
    const created = Date.now();
    const [short] = await sessions(1, 60, created);
    const [long] = await sessions(1, HOUR, created);
    const later = created + 61_000;
    const [early, late, other] = await Promise.all([store.load(short!.key, created), store.load(short!.key, later), store.load(long!.key, later)]);
    expect(early?.user.id).toBe(short!.user.id);
    expect(late).toBeNull();
    expect(other?.user.id).toBe(long!.user.id);
  });

  it('answers a missing key with null beside found ones', async () => {
    const [a] = await sessions(1);
    const missing = 'a'.repeat(32);
    const [found, none] = await Promise.all([store.load(a!.key), store.load(missing)]);
    expect(found?.user.id).toBe(a!.user.id);
    expect(none).toBeNull();
  });

  it('reads a session on the way to a write alone', async () => {
    const made = await sessions(2);
    const statements = await counter.during(() => Promise.all(made.map(({ key }) => store.load(key, Date.now(), undefined, true))));
    expect(statements).toBe(2);
  });

  it('reads inside a transaction on the transaction’s connection: it sees the transaction’s own change', async () => {
    const [a] = await sessions(1);
    const inside = await t.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sessions').where('session_key', '=', a!.key).execute();
      return store.withDb(trx).load(a!.key);
    });
    expect(inside).toBeNull();
    expect(await store.load(a!.key)).toBeNull();
  });
});

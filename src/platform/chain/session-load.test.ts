import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { buildTestApp, createUser, loggedIn, type TestApp } from '../../../test/index.js';
import { CallerColumns } from './caller-columns.js';
import { SessionStore, sessionAuthHash } from './session.js';

// No process keeps sessions: each request reads its session (and the caller's view token) from
// the database, so a change made anywhere counts at the next request.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const HOUR = 3600;

async function storeWithSession(lifetimeSeconds = HOUR, now = Date.now()) {
  const store = new SessionStore(t.db, lifetimeSeconds);
  const user = await createUser(t.db);
  const { key, expireDate } = await store.create(user.id, sessionAuthHash(t.config.secretKey, user.password), 'test', now);
  return { store, key, expireDate, user };
}

const deleteRow = (key: string) => t.db.deleteFrom('sessions').where('session_key', '=', key).execute();

describe('SessionStore.load', () => {
  it('reads the session from the database every time: a deleted row is gone at the next load', async () => {
    const now = Date.now();
    const { store, key, user } = await storeWithSession(HOUR, now);
    expect((await store.load(key, now))?.user.id).toBe(user.id);
    await deleteRow(key);
    expect(await store.load(key, now)).toBeNull();
  });

  it('ends a session at its expiry', async () => {
    const now = Date.now();
    const { store, key, expireDate } = await storeWithSession(60, now);
    expect(await store.load(key, expireDate - 1)).not.toBeNull();
    expect(await store.load(key, expireDate)).toBeNull();
  });

  it('refreshes last_seen once a minute', async () => {
    const now = Date.now();
    const { store, key } = await storeWithSession(HOUR, now);
    await store.load(key, now);
    await store.load(key, now + 61_000);
    const row = await t.db.selectFrom('sessions').select('last_seen').where('session_key', '=', key).executeTakeFirstOrThrow();
    expect(row.last_seen).toBe(now + 61_000);
  });

  it('hands out a session no request can change for the next', async () => {
    const now = Date.now();
    const { store, key } = await storeWithSession(HOUR, now);
    const session = await store.load(key, now);
    expect(Object.isFrozen(session)).toBe(true);
    expect(Object.isFrozen(session?.user)).toBe(true);
  });

  it('carries a view token that moves with the user’s view version and with the caller columns that are part of it', async () => {
    const now = Date.now();
    const callers = new CallerColumns();
    // As the groups feature's memberships are: a caller column that is part of the view token.
    callers.add({ name: 'email', inViewToken: true, query: (db, userId) => db.selectFrom('users as mailed').select('mailed.email').where('mailed.id', '=', userId) });
    callers.add({ name: 'zone', query: (db, userId) => db.selectFrom('users as zoned').select('zoned.timezone').where('zoned.id', '=', userId) });
    const store = new SessionStore(t.db, HOUR, undefined, { links: [], callers });
    const user = await createUser(t.db);
    const { key } = await store.create(user.id, sessionAuthHash(t.config.secretKey, user.password), 'test', now);
    const first = (await store.load(key, now))!;
    expect(first.columns).toEqual({ email: user.email, zone: user.timezone });
    expect((await store.load(key, now))!.viewToken).toBe(first.viewToken);
    // A column outside the token changes nothing of it.
    await t.db.updateTable('users').set({ timezone: 'Europe/Kyiv' }).where('id', '=', user.id).execute();
    expect((await store.load(key, now))!.viewToken).toBe(first.viewToken);
    await t.db.updateTable('users').set({ email: 'other@example.com' }).where('id', '=', user.id).execute();
    const mailed = (await store.load(key, now))!.viewToken;
    expect(mailed).not.toBe(first.viewToken);
    await t.db.updateTable('users').set({ view_version: 41 }).where('id', '=', user.id).execute();
    expect((await store.load(key, now))!.viewToken).not.toBe(mailed);
  });
});

describe('through the app, a session changed by another connection counts at the next request', () => {
  /** Runs `change` on a connection of its own (as another worker, instance or the CLI would). */
  async function elsewhere(change: (other: ReturnType<typeof openDatabase>) => Promise<unknown>): Promise<void> {
    const other = openDatabase(t.config.databaseUrl);
    try {
      await change(other);
    } finally {
      await other.close();
    }
  }

  async function signedIn() {
    const { user, browser } = await loggedIn(t);
    const key = browser.cookies.get('sessionid')!;
    // Twice: the second answer is the page as kept.
    expect((await browser.get('/accounts/password_change/')).statusCode).toBe(200);
    expect((await browser.get('/accounts/password_change/')).statusCode).toBe(200);
    return { user, browser, key };
  }

  it('a session deleted elsewhere is logged out', async () => {
    const { browser, key } = await signedIn();
    await elsewhere((other) => other.db.deleteFrom('sessions').where('session_key', '=', key).execute());
    const response = await browser.get('/accounts/password_change/');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^\/accounts\/login\//);
  });

  it('a password changed elsewhere ends the session', async () => {
    const { browser, user } = await signedIn();
    await elsewhere((other) => other.db.updateTable('users').set({ password: 'pbkdf2_sha256$1000$othersalt$changed' }).where('id', '=', user.id).execute());
    expect((await browser.get('/accounts/password_change/')).statusCode).toBe(302);
  });

  it('a user deactivated elsewhere is logged out', async () => {
    const { browser, user } = await signedIn();
    await elsewhere((other) => other.db.updateTable('users').set({ is_active: 0 }).where('id', '=', user.id).execute());
    expect((await browser.get('/accounts/password_change/')).statusCode).toBe(302);
  });

  it('a username renamed elsewhere shows at the next request', async () => {
    const { browser, user } = await signedIn();
    const renamed = `${user.username}-renamed`;
    await elsewhere((other) => other.db.updateTable('users').set({ username: renamed }).where('id', '=', user.id).execute());
    expect((await browser.get('/accounts/password_change/')).body).toContain(renamed);
  });
});

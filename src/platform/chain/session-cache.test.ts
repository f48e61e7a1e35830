import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { type TestApp, buildTestApp, createUser, loggedIn } from '../../../test/helpers.js';
import { SessionStore, sessionAuthHash } from './session.js';

// Sessions may be answered from memory while the database's change token is unchanged
// (SessionStore.load). The store takes the token from its caller, so the first part gives it
// tokens directly; the second goes through the app, where on SQLite the token is the database's.

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

describe('SessionStore.load with a change token', () => {
  it('answers from memory under the same token, and from the database once the token moved', async () => {
    const now = Date.now();
    const { store, key, user } = await storeWithSession(HOUR, now);
    const first = await store.load(key, now, 'token-1');
    expect(first?.user.id).toBe(user.id);
    await deleteRow(key);
    // Under the same token the row is not read again (a real token would have moved with the delete).
    expect(await store.load(key, now, 'token-1')).toBe(first);
    expect(await store.load(key, now, 'token-2')).toBeNull();
    expect(await store.load(key, now, 'token-1')).toBeNull();
  });

  it('keeps nothing without a token', async () => {
    const now = Date.now();
    const { store, key } = await storeWithSession(HOUR, now);
    expect(await store.load(key, now, null)).not.toBeNull();
    await deleteRow(key);
    expect(await store.load(key, now, null)).toBeNull();
  });

  it('still ends a kept session at its expiry', async () => {
    const now = Date.now();
    const { store, key, expireDate } = await storeWithSession(60, now);
    expect(await store.load(key, now, 'token-1')).not.toBeNull();
    expect(await store.load(key, expireDate - 1, 'token-1')).not.toBeNull();
    expect(await store.load(key, expireDate, 'token-1')).toBeNull();
  });

  it('still refreshes last_seen once a minute', async () => {
    const now = Date.now();
    const { store, key } = await storeWithSession(HOUR, now);
    await store.load(key, now, 'token-1');
    await store.load(key, now + 61_000, 'token-1');
    const row = await t.db.selectFrom('sessions').select('last_seen').where('session_key', '=', key).executeTakeFirstOrThrow();
    expect(row.last_seen).toBe(now + 61_000);
  });

  it('hands out a session no request can change for the next', async () => {
    const now = Date.now();
    const { store, key } = await storeWithSession(HOUR, now);
    const session = await store.load(key, now, 'token-1');
    expect(Object.isFrozen(session)).toBe(true);
    expect(Object.isFrozen(session?.user)).toBe(true);
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
    // Twice: the second answer may come from a kept session.
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

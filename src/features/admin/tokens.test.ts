import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, buildTestApp, createToken, createUser, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';
import type { User } from '../../db/schema.js';

// An administrator's deactivation and reset mail end the user's API tokens for good: the rows go
// in the same transaction as the change, so reactivating the account brings none back.

let t: TestApp;
let admin: { user: User; browser: TestBrowser };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await loggedIn(t);
  await t.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.user.id).execute();
});
afterAll(() => t.close());

const statuses = async (tokens: string[]) => Promise.all(tokens.map(async (token) => (await new ApiClient(t.app, { token }).get('/api/v1/me/')).statusCode));
const tokenCount = async (userId: number) => (await t.db.selectFrom('access_tokens').select('id').where('user_id', '=', userId).execute()).length;

/** A user with two working tokens, and a bystander with one. */
async function userWithTokens(email = '') {
  const user = await createUser(t.db, { email });
  const tokens = [await createToken(t.db, user, 'write'), await createToken(t.db, user, 'read')];
  const theirs = await createToken(t.db, await createUser(t.db), 'write');
  expect(await statuses([...tokens, theirs])).toEqual([200, 200, 200]);
  return { user, tokens, theirs };
}

describe('an administrator', () => {
  it('deactivating a user revokes every API token of theirs (401), and reactivating brings none back', async () => {
    const { user, tokens, theirs } = await userWithTokens();
    expect((await admin.browser.post(`/admin/users/${user.id}/deactivate/`)).statusCode).toBe(302);
    expect(await statuses([...tokens, theirs])).toEqual([401, 401, 200]);
    expect(await tokenCount(user.id)).toBe(0);
    expect((await admin.browser.post(`/admin/users/${user.id}/activate/`)).statusCode).toBe(302);
    expect(await statuses(tokens)).toEqual([401, 401]);
  });

  it('sending a user the reset mail revokes every API token of theirs', async () => {
    const { user, tokens, theirs } = await userWithTokens('reset-tokens@example.test');
    expect((await admin.browser.post(`/admin/users/${user.id}/send-reset/`)).statusCode).toBe(302);
    expect(await statuses([...tokens, theirs])).toEqual([401, 401, 200]);
  });

  it('refused actions revoke nothing: deactivating themselves, a reset mail for a user without an address', async () => {
    const own = await createToken(t.db, admin.user, 'write');
    expect((await admin.browser.post(`/admin/users/${admin.user.id}/deactivate/`)).statusCode).toBe(302);
    expect(await statuses([own])).toEqual([200]);
    const { user, tokens } = await userWithTokens();
    expect((await admin.browser.post(`/admin/users/${user.id}/send-reset/`)).statusCode).toBe(302);
    expect(await statuses(tokens)).toEqual([200, 200]);
  });
});

describe('anyone else', () => {
  it('gets the 404 and revokes nothing', async () => {
    const { browser } = await loggedIn(t);
    const { user, tokens } = await userWithTokens('not-admin@example.test');
    for (const action of ['deactivate', 'send-reset']) expect((await browser.post(`/admin/users/${user.id}/${action}/`)).statusCode).toBe(404);
    expect(await statuses(tokens)).toEqual([200, 200]);
  });
});

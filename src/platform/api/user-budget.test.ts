import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, buildTestApp, createToken, createUser, loggedIn, type TestApp } from '../../../test/index.js';

// A user's API requests share one budget, whatever credentials they come with: more tokens are
// not more requests. Each token (and the cookie) keeps its own smaller budget inside it.

let t: TestApp;
let defaults: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ API_RATE_BURST: '5', API_RATE_PER_SECOND: '1', API_USER_RATE_BURST: '8', API_USER_RATE_PER_SECOND: '1' });
  defaults = await buildTestApp({ API_RATE_BURST: '5', API_RATE_PER_SECOND: '1' });
});
afterAll(async () => {
  await t.close();
  await defaults.close();
});

/** Sends `each` requests with every client in turn and counts the answers of each status. */
async function burst(clients: ApiClient[], each: number): Promise<Record<number, number>> {
  const counted: Record<number, number> = {};
  for (let i = 0; i < each; i++) {
    for (const client of clients) {
      const { statusCode } = await client.get('/api/v1/me/');
      counted[statusCode] = (counted[statusCode] ?? 0) + 1;
    }
  }
  return counted;
}

describe('the per-user API budget', () => {
  it('three tokens of one user together get the user’s budget only, not three tokens’ worth', async () => {
    const user = await createUser(t.db);
    const clients = await Promise.all([1, 2, 3].map(async () => new ApiClient(t.app, { token: await createToken(t.db, user) })));
    expect(await burst(clients, 5)).toEqual({ 200: 8, 429: 7 });
  });

  it('refuses past it with the API’s 429: the rate_limited code, a message about the account and Retry-After', async () => {
    const user = await createUser(t.db);
    const clients = await Promise.all([1, 2].map(async () => new ApiClient(t.app, { token: await createToken(t.db, user) })));
    await burst(clients, 4);
    const refused = await clients[0]!.get('/api/v1/me/');
    expect(refused.statusCode).toBe(429);
    expect(refused.data).toMatchObject({ error: { code: 'rate_limited', message: expect.stringContaining('this account') } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('is the user’s own: another user’s tokens keep theirs', async () => {
    const user = await createUser(t.db);
    await burst([new ApiClient(t.app, { token: await createToken(t.db, user) }), new ApiClient(t.app, { token: await createToken(t.db, user) })], 5);
    const other = new ApiClient(t.app, { token: await createToken(t.db, await createUser(t.db)) });
    expect(await burst([other], 5)).toEqual({ 200: 5 });
  });

  it('still leaves each token its own budget inside the user’s', async () => {
    const user = await createUser(t.db);
    const busy = new ApiClient(t.app, { token: await createToken(t.db, user) });
    expect(await burst([busy], 7)).toEqual({ 200: 5, 429: 2 });
    // The refused requests took nothing from the user's budget: 3 of its 8 are left.
    const calm = new ApiClient(t.app, { token: await createToken(t.db, user) });
    expect(await burst([calm], 4)).toEqual({ 200: 3, 429: 1 });
  });

  it('is shared by a script on the session cookie and the user’s tokens', async () => {
    const { user, browser } = await loggedIn(t);
    const clients = [new ApiClient(t.app, { browser }), new ApiClient(t.app, { token: await createToken(t.db, user) })];
    expect(await burst(clients, 5)).toEqual({ 200: 8, 429: 2 });
  });

  it('is twice a token’s by default', async () => {
    const user = await createUser(defaults.db);
    const clients = await Promise.all([1, 2, 3].map(async () => new ApiClient(defaults.app, { token: await createToken(defaults.db, user) })));
    expect(await burst(clients, 5)).toEqual({ 200: 10, 429: 5 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, buildTestApp, createToken, createUser, loggedIn, type TestApp, TestBrowser } from '../../../test/index.js';
import { TOKEN_PATTERN, newToken } from './tokens.js';

// The rules every API route shares (platform/api/layer.ts, routes.ts, the CSRF and
// authentication layers): who a request is, what it may do, how it is refused. Writes are
// tried on POST /api/v1/notes/, the API's busiest write.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ API_RATE_BURST: '5', API_RATE_PER_SECOND: '1' });
});
afterAll(() => t.close());

const anonymous = () => new ApiClient(t.app, null);
const noteCount = async (ownerId: number) => Number((await t.db.selectFrom('notes').select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow()).n);

describe('tokens', () => {
  it('are gnp_ and 40 letters and digits, stored only as a hash', async () => {
    const { token, hash, hint } = newToken();
    expect(token).toMatch(TOKEN_PATTERN);
    expect(token).toMatch(/^gnp_[A-Za-z0-9]{40}$/);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(token.slice(4));
    expect(token.slice(4, 8)).toBe(hint);
  });

  it('authenticate as their user, and the use is recorded', async () => {
    const user = await createUser(t.db);
    const token = await createToken(t.db, user, 'write');
    const response = await new ApiClient(t.app, { token }).get('/api/v1/me/');
    expect(response.statusCode).toBe(200);
    expect(response.data).toMatchObject({ id: user.id, username: user.username, token_scope: 'write' });
    const row = await t.db.selectFrom('access_tokens').select('last_used_at').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(Number(row.last_used_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('that are revoked, mistyped or of a deactivated user are a 401, never a fall-back to the cookie', async () => {
    const { user, browser } = await loggedIn(t);
    const token = await createToken(t.db, user);
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    // Mistyped: the last character changed (to another one: a token may end in 'x').
    const mistyped = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`;
    for (const authorization of [`Bearer ${mistyped}`, 'Bearer gnp_short', `Basic ${Buffer.from('a:b').toString('base64')}`, 'Bearer']) {
      const response = await anonymous().get('/api/v1/me/', { headers: { authorization, cookie } });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.data).toMatchObject({ error: { code: 'unauthenticated' } });
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    await t.db.deleteFrom('access_tokens').where('user_id', '=', user.id).execute();
    expect((await new ApiClient(t.app, { token }).get('/api/v1/me/')).statusCode).toBe(401);

    const other = await createUser(t.db);
    const otherToken = await createToken(t.db, other);
    expect((await new ApiClient(t.app, { token: otherToken }).get('/api/v1/me/')).statusCode).toBe(200);
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', other.id).execute();
    expect((await new ApiClient(t.app, { token: otherToken }).get('/api/v1/me/')).statusCode).toBe(401);
  });

  it('read-only may read but not write (403), and nothing is written', async () => {
    const user = await createUser(t.db);
    const reader = new ApiClient(t.app, { token: await createToken(t.db, user, 'read') });
    expect((await reader.get('/api/v1/notes/')).statusCode).toBe(200);
    const refused = await reader.post('/api/v1/notes/', { title: 'Nope' });
    expect(refused.statusCode).toBe(403);
    expect(refused.data).toMatchObject({ error: { code: 'forbidden' } });
    expect(await noteCount(user.id)).toBe(0);
    const writer = new ApiClient(t.app, { token: await createToken(t.db, user, 'write') });
    expect((await writer.post('/api/v1/notes/', { title: 'Yes' })).statusCode).toBe(201);
    expect(await noteCount(user.id)).toBe(1);
  });

  it('each have a request budget: past it a 429 with Retry-After, other tokens unaffected', async () => {
    const user = await createUser(t.db);
    const busy = new ApiClient(t.app, { token: await createToken(t.db, user) });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await busy.get('/api/v1/me/')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await busy.get('/api/v1/me/');
    expect(refused.data).toMatchObject({ error: { code: 'rate_limited' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const calm = new ApiClient(t.app, { token: await createToken(t.db, user) });
    expect((await calm.get('/api/v1/me/')).statusCode).toBe(200);
  });

  it('are no way around the limit: a script on the session cookie has the same budget, per user', async () => {
    const { browser } = await loggedIn(t);
    const client = new ApiClient(t.app, { browser });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await client.get('/api/v1/me/')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // The pages are not the API's to limit.
    expect((await browser.get('/notes/')).statusCode).toBe(200);
  });
});

describe('without credentials', () => {
  it('every API path answers 401 in JSON, never a redirect to the login page', async () => {
    for (const [method, path] of [['GET', '/api/v1/me/'], ['GET', '/api/v1/notes/'], ['POST', '/api/v1/notes/'], ['GET', '/api/notes/']]) {
      const response = await anonymous().request(method!, path!, method === 'POST' ? { body: { title: 'x' } } : {});
      expect(response.statusCode, `${method} ${path}`).toBe(401);
      expect(response.headers.location).toBeUndefined();
      expect(response.data).toMatchObject({ error: { code: 'unauthenticated' } });
    }
  });

  it('an expired or logged-out session is a 401', async () => {
    const { user, browser } = await loggedIn(t);
    const client = new ApiClient(t.app, { browser });
    expect((await client.get('/api/v1/me/')).statusCode).toBe(200);
    await t.db.updateTable('sessions').set({ expire_date: Date.now() - 1000 }).where('user_id', '=', user.id).execute();
    expect((await client.get('/api/v1/me/')).statusCode).toBe(401);

    const second = await loggedIn(t);
    const secondClient = new ApiClient(t.app, { browser: second.browser });
    expect((await secondClient.get('/api/v1/me/')).statusCode).toBe(200);
    await second.browser.post('/accounts/logout/');
    expect((await new ApiClient(t.app, { browser: second.browser }).get('/api/v1/me/')).statusCode).toBe(401);
  });
});

describe('the session cookie', () => {
  it('reads freely, but writes only with X-CSRFToken from our own origin (a token needs neither)', async () => {
    const { user, browser } = await loggedIn(t);
    const me = await new ApiClient(t.app, { browser }).get('/api/v1/me/');
    expect(me.data).toMatchObject({ id: user.id, token_scope: null });

    const forged = await new ApiClient(t.app, { browser, csrf: false }).post('/api/v1/notes/', { title: 'Forged' });
    expect(forged.statusCode).toBe(403);
    expect(forged.data).toMatchObject({ error: { code: 'forbidden' } });
    expect(forged.data).toMatchObject({ error: { message: expect.stringMatching(/CSRF/) } });
    const crossSite = await new ApiClient(t.app, { browser }).post('/api/v1/notes/', { title: 'Cross' }, { headers: { origin: 'https://evil.example' } });
    expect(crossSite.statusCode).toBe(403);
    expect(await noteCount(user.id)).toBe(0);

    const honest = await new ApiClient(t.app, { browser }).post('/api/v1/notes/', { title: 'Mine' });
    expect(honest.statusCode).toBe(201);
    const token = await createToken(t.db, user);
    const scripted = await new ApiClient(t.app, { token }).post('/api/v1/notes/', { title: 'Scripted' }, { headers: { origin: 'https://elsewhere.example' } });
    expect(scripted.statusCode).toBe(201);
    expect(await noteCount(user.id)).toBe(2);
  });
});

describe('answers', () => {
  it('are JSON errors for unknown paths, wrong methods, bad JSON and oversized bodies', async () => {
    const user = await createUser(t.db);
    const client = new ApiClient(t.app, { token: await createToken(t.db, user) });
    const missing = await client.get('/api/v1/nothing-here/');
    expect(missing.statusCode).toBe(404);
    expect(missing.data).toMatchObject({ error: { code: 'not_found' } });
    const wrongMethod = await client.request('PUT', '/api/v1/me/');
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.data).toMatchObject({ error: { code: 'method_not_allowed' } });
    const badJson = await client.request('POST', '/api/v1/notes/', { headers: { 'content-type': 'application/json' }, body: undefined });
    expect(badJson.statusCode).toBe(400);
    const broken = await t.app.inject({ method: 'POST', url: '/api/v1/notes/', headers: { host: 'localhost', authorization: `Bearer ${await createToken(t.db, user)}`, 'content-type': 'application/json' }, payload: '{"title": ' });
    expect(broken.statusCode).toBe(400);
    expect(JSON.parse(broken.body).error.code).toBe('invalid');
    const huge = await client.post('/api/v1/notes/', { title: 'x', content: 'y'.repeat(1024 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(huge.data).toMatchObject({ error: { code: 'too_large' } });
    expect(await noteCount(user.id)).toBe(0);
  });

  it('carry an ETag, and If-None-Match with it is a 304 without a body', async () => {
    const user = await createUser(t.db);
    const client = new ApiClient(t.app, { token: await createToken(t.db, user) });
    const first = await client.get('/api/v1/me/');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await client.get('/api/v1/me/', { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await client.get('/api/v1/me/', { headers: { 'if-none-match': '"something-else"' } });
    expect(other.statusCode).toBe(200);
  });
});

describe('a browser', () => {
  it('still gets pages, not JSON, outside /api/', async () => {
    const browser = new TestBrowser(t.app);
    const response = await browser.get('/notes/');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^\/accounts\/login\//);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, DEFAULT_PASSWORD, loggedIn, type TestApp, TestBrowser } from '../../../test/index.js';
import { maskSecret } from './csrf.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ CSRF_TRUSTED_ORIGINS: 'https://tunnel.example.net' });
});
afterAll(() => t.close());

async function sessionCount(userId: number): Promise<number> {
  const rows = await t.db.selectFrom('sessions').select('session_key').where('user_id', '=', userId).execute();
  return rows.length;
}

describe('CSRF protection on POST', () => {
  it('accepts a login form carrying the masked token from the page (positive case)', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    const page = await browser.get('/accounts/login/');
    const token = /name="csrfmiddlewaretoken" value="([A-Za-z0-9]{64})"/.exec(page.body)![1]!;
    const response = await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, { token });
    expect(response.statusCode).toBe(302);
    expect(await sessionCount(user.id)).toBe(1);
  });

  it('rejects a POST without a token with 403 before the handler runs', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    await browser.ensureCsrfCookie();
    const response = await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('CSRF verification failed');
    expect(await sessionCount(user.id)).toBe(0);
  });

  it('rejects a wrong token with 403', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    await browser.ensureCsrfCookie();
    const wrong = maskSecret('x'.repeat(32));
    const response = await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, { token: wrong });
    expect(response.statusCode).toBe(403);
    expect(await sessionCount(user.id)).toBe(0);
  });

  it('rejects a POST without the csrftoken cookie', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    const response = await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, { token: maskSecret('a'.repeat(32)) });
    expect(response.statusCode).toBe(403);
    expect(await sessionCount(user.id)).toBe(0);
  });

  it('rejects a correct token sent from a foreign Origin', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    const response = await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(await sessionCount(user.id)).toBe(0);
  });

  it('accepts an Origin listed in CSRF_TRUSTED_ORIGINS', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    const response = await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, { origin: 'https://tunnel.example.net' });
    expect(response.statusCode).toBe(302);
  });

  it('accepts the cookie value in the X-CSRFToken header, as scripts send it', async () => {
    const { user, browser } = await loggedIn(t);
    const secret = browser.cookies.get('csrftoken')!;
    const response = await browser.post('/accounts/logout/', {}, { csrf: false, headers: { 'x-csrftoken': secret } });
    expect(response.statusCode).toBe(302);
    expect(await sessionCount(user.id)).toBe(0);
  });

  it('protects logout: a forged logout leaves the session alive', async () => {
    const { user, browser } = await loggedIn(t);
    const response = await browser.post('/accounts/logout/', {}, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(await sessionCount(user.id)).toBe(1);
  });

  it('makes a new masked token for each page, all for the same secret', async () => {
    const browser = new TestBrowser(t.app);
    const first = await browser.get('/accounts/login/');
    const second = await browser.get('/accounts/login/');
    const token = (body: string) => /name="csrfmiddlewaretoken" value="([A-Za-z0-9]{64})"/.exec(body)![1];
    expect(token(first.body)).not.toBe(token(second.body));
    expect(first.headers['set-cookie']).toMatch(/^csrftoken=[A-Za-z0-9]{32}; Max-Age=\d+; Path=\/; SameSite=Lax$/);
    expect(first.headers['set-cookie']).not.toMatch(/HttpOnly/);
    expect(second.headers['set-cookie']).toBeUndefined();
  });
});

describe('Referer check over HTTPS', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await buildTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => proxied.close());

  it('requires a same-site https Referer when there is no Origin header', async () => {
    const user = await createUser(proxied.db);
    const browser = new TestBrowser(proxied.app);
    const form = { username: user.username, password: DEFAULT_PASSWORD };
    const https = { 'x-forwarded-proto': 'https' };
    const missing = await browser.post('/accounts/login/', form, { origin: null, headers: https });
    expect(missing.statusCode).toBe(403);
    const foreign = await browser.post('/accounts/login/', form, { origin: null, headers: { ...https, referer: 'https://evil.example/x' } });
    expect(foreign.statusCode).toBe(403);
    const own = await browser.post('/accounts/login/', form, { origin: null, headers: { ...https, referer: 'https://localhost/accounts/login/' } });
    expect(own.statusCode).toBe(302);
  });
});

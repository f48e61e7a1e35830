import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, DEFAULT_PASSWORD, type TestApp, TestBrowser } from '../../../test/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    NODE_ENV: 'production',
    TRUST_PROXY: 'true',
    ALLOWED_HOSTS: 'notes.example.com',
    PUBLIC_URL: 'https://notes.example.com',
    SMTP_URL: 'off',
    CSRF_TRUSTED_ORIGINS: 'https://tunnel.example.net',
  });
});
afterAll(() => t.close());

const HTTPS = { 'x-forwarded-proto': 'https' };

function setCookies(response: { headers: Record<string, unknown> }): string[] {
  return [response.headers['set-cookie'] ?? []].flat() as string[];
}

describe('production behind a proxy', () => {
  it('redirects http to https, decided from X-Forwarded-Proto', async () => {
    const response = await t.app.inject({ url: '/accounts/login/?a=1', headers: { host: 'notes.example.com', 'x-forwarded-proto': 'http' } });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('https://notes.example.com/accounts/login/?a=1');
  });

  it('sends HSTS and marks both cookies Secure over https', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app, 'notes.example.com');
    const page = await browser.get('/accounts/login/', { headers: HTTPS });
    expect(page.statusCode).toBe(200);
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(String(page.headers['set-cookie'])).toMatch(/^csrftoken=.*; Secure/);

    const login = await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, {
      origin: 'https://notes.example.com',
      headers: HTTPS,
    });
    expect(login.statusCode).toBe(302);
    const cookies = [login.headers['set-cookie']].flat().join('\n');
    const session = cookies.split('\n').find((cookie) => cookie.startsWith('sessionid='))!;
    expect(session).toMatch(/^sessionid=[a-z0-9]{32};/);
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/']) expect(session).toContain(`; ${attribute}`);
    expect(cookies).toMatch(/csrftoken=[A-Za-z0-9]{32};.*Secure/);
  });

  it('does not redirect to a host outside ALLOWED_HOSTS', async () => {
    const response = await t.app.inject({ url: '/accounts/login/', headers: { host: 'evil.example', 'x-forwarded-proto': 'http' } });
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
  });

  it('shows no error details on error pages', async () => {
    const response = await t.app.inject({ url: '/nope/', headers: { host: 'notes.example.com', ...HTTPS } });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('error-detail');
    const csrf = await new TestBrowser(t.app, 'notes.example.com').post('/accounts/logout/', {}, { csrf: false, origin: 'https://notes.example.com', headers: HTTPS });
    expect(csrf.statusCode).toBe(403);
    expect(csrf.body).toContain('CSRF verification failed. Request aborted.');
    expect(csrf.body).not.toContain('CSRF cookie not set');
  });

  it('keeps Secure on the cookies it clears and on the flash message at logout', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app, 'notes.example.com');
    await browser.get('/accounts/login/', { headers: HTTPS });
    await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, { origin: 'https://notes.example.com', headers: HTTPS });
    const logout = await browser.post('/accounts/logout/', {}, { origin: 'https://notes.example.com', headers: HTTPS });
    expect(logout.statusCode).toBe(302);
    const cookies = setCookies(logout);
    const cleared = cookies.find((cookie) => cookie.startsWith('sessionid=;'));
    const flash = cookies.find((cookie) => cookie.startsWith('messages='));
    expect(cleared).toContain('; Secure');
    expect(flash).toContain('; Secure');
    expect(flash).toContain('; HttpOnly');
  });

  it('accepts a form posted from a CSRF_TRUSTED_ORIGINS tunnel origin, and no other foreign origin', async () => {
    const user = await createUser(t.db);
    const tunnel = new TestBrowser(t.app, 'notes.example.com');
    await tunnel.get('/accounts/login/', { headers: HTTPS });
    const accepted = await tunnel.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, { origin: 'https://tunnel.example.net', headers: HTTPS });
    expect(accepted.statusCode).toBe(302);
    expect(accepted.headers.location).toBe('/notes/');

    const foreign = new TestBrowser(t.app, 'notes.example.com');
    await foreign.get('/accounts/login/', { headers: HTTPS });
    const refused = await foreign.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, { origin: 'https://elsewhere.example', headers: HTTPS });
    expect(refused.statusCode).toBe(403);
    expect(setCookies(refused).some((cookie) => cookie.startsWith('sessionid='))).toBe(false);
  });

  it("answers the proxy's /healthz over plain http: no redirect, no cookie, HSTS still sent", async () => {
    const response = await t.app.inject({ url: '/healthz', headers: { host: 'notes.example.com', 'x-forwarded-proto': 'http' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok' });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('production without TRUST_PROXY', () => {
  let direct: TestApp;
  beforeAll(async () => {
    direct = await buildTestApp({ NODE_ENV: 'production', ALLOWED_HOSTS: 'notes.example.com', PUBLIC_URL: 'https://notes.example.com', SMTP_URL: 'off' });
  });
  afterAll(() => direct.close());

  it('ignores X-Forwarded-Proto: a client cannot claim https to skip the redirect', async () => {
    const response = await direct.app.inject({ url: '/accounts/login/', headers: { host: 'notes.example.com', ...HTTPS } });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('https://notes.example.com/accounts/login/');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD, TestBrowser, type TestApp, buildTestApp, createUser } from '../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ NODE_ENV: 'production', TRUST_PROXY: 'true', ALLOWED_HOSTS: 'notes.example.com' });
});
afterAll(() => t.close());

const HTTPS = { 'x-forwarded-proto': 'https' };

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
});

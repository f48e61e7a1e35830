import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, loggedIn, type TestApp, TestBrowser } from '../../../test/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { host: 'localhost', ...headers } });

describe('security headers on every response', () => {
  it.each(['/accounts/login/', '/no-such-page/', '/static/app.css', '/accounts/logout/'])('sets them on %s', async (url) => {
    const response = await get(url);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('common layer', () => {
  it('redirects a GET without the trailing slash to the slashed path, keeping the query', async () => {
    const response = await get('/accounts/login?next=%2Fgroups%2F');
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/accounts/login/?next=%2Fgroups%2F');
  });

  it('answers 404 when the slashed path is not a route either, and never redirects off-site', async () => {
    expect((await get('/nothing-here')).statusCode).toBe(404);
    const sneaky = await get('//evil.example');
    expect(sneaky.statusCode).toBe(404);
    expect(sneaky.headers.location).toBeUndefined();
  });

  it('refuses a Host header outside ALLOWED_HOSTS with 400', async () => {
    const response = await get('/accounts/login/', { host: 'evil.example' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Invalid Host header');
    expect((await get('/accounts/login/', { host: '127.0.0.1:8001' })).statusCode).toBe(200);
  });

  it('answers 405 with Allow for a known path and the wrong method', async () => {
    const getLogout = await get('/accounts/logout/');
    expect(getLogout.statusCode).toBe(405);
    expect(getLogout.headers.allow).toBe('POST');
  });

  it('checks CSRF before routing an unsafe method, so a forged DELETE is a 403', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/accounts/login/', headers: { host: 'localhost', origin: 'http://localhost' } });
    expect(response.statusCode).toBe(403);
  });
});

describe('error pages', () => {
  it('renders a styled 404 page inside the layout', async () => {
    const response = await get('/missing/');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<h1><span class="status-code">404</span> Not found</h1>');
    expect(response.body).toContain('/static/app.css');
  });

  it('answers 413 with a styled page for a body over 1 MiB', async () => {
    const browser = new TestBrowser(t.app);
    const response = await browser.post('/accounts/login/', { username: 'x', password: 'y'.repeat(1024 * 1024) });
    expect(response.statusCode).toBe(413);
    expect(response.body).toContain('larger than the 1 MiB');
  });

  it('answers 415 for a body type it does not accept', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/accounts/login/',
      payload: 'x',
      headers: { host: 'localhost', 'content-type': 'application/xml', origin: 'http://localhost' },
    });
    expect(response.statusCode).toBe(415);
  });

  it('answers a bad JSON body with 400, not 500', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/accounts/login/',
      payload: '{"username": ',
      headers: { host: 'localhost', 'content-type': 'application/json', origin: 'http://localhost' },
    });
    expect(response.statusCode).toBe(400);
  });

  it('treats array-valued form fields as invalid input, not a crash', async () => {
    const browser = new TestBrowser(t.app);
    const response = await browser.post('/accounts/login/', { username: ['a', 'b'], password: ['c', 'd'] });
    expect(response.statusCode).toBe(400);
  });
});

describe('start page', () => {
  it('sends anonymous callers to login and logged-in callers to their notes', async () => {
    expect((await get('/')).headers.location).toBe('/accounts/login/');
    const { browser } = await loggedIn(t);
    expect((await browser.get('/')).headers.location).toBe('/notes/');
  });
});

describe('a real listening server', () => {
  it('serves the login page and logs in over TCP', async () => {
    const user = await createUser(t.db);
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const page = await fetch(`${address}/accounts/login/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const csrf = /csrftoken=([A-Za-z0-9]{32})/.exec(page.headers.get('set-cookie') ?? '')![1]!;
    const login = await fetch(`${address}/accounts/login/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${csrf}`, origin: address },
      body: new URLSearchParams({ csrfmiddlewaretoken: csrf, username: user.username, password: 'correct-horse-battery' }),
    });
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toBe('/notes/');
    expect(login.headers.getSetCookie().some((cookie) => /^sessionid=[a-z0-9]{32};.*HttpOnly.*SameSite=Lax/.test(cookie))).toBe(true);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD } from '../helpers.js';
import { setCookieLine } from './http-client.js';
import { REPO } from './processes.js';
import { type Topology, startTopology } from './topology.js';

let t: Topology;
beforeAll(async () => {
  t = await startTopology();
});
afterAll(() => t?.stop());

describe('nginx in front of two instances', () => {
  it('both instances migrated the same empty database at start without a conflict', async () => {
    for (const app of [t.appA, t.appB]) expect(app.output).not.toMatch(/migration .* failed/);
    const recorded = await t.query<{ name: string; n: string }>('select name, count(*) as n from kysely_migration group by name');
    expect(recorded.length).toBeGreaterThan(0);
    for (const row of recorded) expect(Number(row.n)).toBe(1);
  });

  it('logs in through the proxy: Secure session and CSRF cookies, HSTS', async () => {
    const alice = await t.createUser('alice');
    const browser = t.client();
    const page = await browser.get('/accounts/login/');
    expect(page.status).toBe(200);
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(setCookieLine(page, 'csrftoken')).toMatch(/; Secure/);

    const login = await browser.post('/accounts/login/', { username: alice.username, password: DEFAULT_PASSWORD });
    expect(login.status).toBe(302);
    expect(login.headers.location).toBe('/notes/');
    const session = setCookieLine(login, 'sessionid');
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/']) expect(session).toContain(`; ${attribute}`);
    // The session works on whichever instance the next requests reach.
    for (let i = 0; i < 4; i++) {
      const home = await browser.get('/');
      expect(home.status).toBe(302);
      expect(home.headers.location).toBe('/notes/');
    }
    for (const pinned of [t.pinA, t.pinB]) {
      const sessions = await browser.via(pinned.port).get('/accounts/sessions/');
      expect(sessions.status).toBe(200);
      expect(sessions.body).toContain(alice.username);
    }
  });

  it('redirects plain http to https from X-Forwarded-Proto, and ignores a forged X-Forwarded-Host', async () => {
    const reply = await t.client(t.front.port, 'http').get('/accounts/login/?next=/notes/', { 'x-forwarded-host': 'evil.example' });
    expect(reply.status).toBe(301);
    expect(reply.headers.location).toBe('https://notes.example.com/accounts/login/?next=/notes/');
  });

  it('answers /healthz over plain http without a session or a cookie', async () => {
    const reply = await t.client(t.front.port, 'http').get('/healthz');
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ status: 'ok', checks: { database: 'ok' } });
    expect(reply.headers['set-cookie']).toBeUndefined();
  });

  it('serves /static/ from public/ itself, with long cache headers: no request reaches the app', async () => {
    const browser = t.client();
    const page = await browser.get('/accounts/login/');
    const href = /href="(\/static\/app\.css\?v=[0-9a-f]{10})"/.exec(page.body)?.[1];
    expect(href).toBeDefined();
    const css = await browser.get(href!);
    expect(css.status).toBe(200);
    expect(css.body).toBe(readFileSync(join(REPO, 'public/app.css'), 'utf8'));
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await browser.get('/static/no-such-file.css');
    expect(missing.status).toBe(404);

    // The apps log one line per request they answer: pages yes, static files never.
    const logged = [...t.appA.requests(), ...t.appB.requests()];
    expect(logged.some((line) => line.path.startsWith('/accounts/login/'))).toBe(true);
    expect(logged.filter((line) => line.path.startsWith('/static/'))).toEqual([]);
  });

  it('refuses a body over 1 MiB at the proxy', async () => {
    const browser = await t.loggedIn(await t.createUser('bob'));
    const reply = await browser.send('POST', '/accounts/logout/', 'x'.repeat(1024 * 1024 + 1), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(reply.status).toBe(413);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const logouts = [...t.appA.requests(), ...t.appB.requests()].filter((line) => line.path === '/accounts/logout/');
    expect(logouts).toEqual([]);
    expect((await browser.get('/accounts/sessions/')).status).toBe(200);
  });
});

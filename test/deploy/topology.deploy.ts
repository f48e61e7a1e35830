import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import type { User } from '../../src/db/schema.js';
import { DEFAULT_PASSWORD, createUser } from '../helpers.js';
import { ProxyClient, setCookieLine } from './http-client.js';
import { AppInstance, Nginx, REPO, freePort } from './processes.js';

// The production topology, for real: nginx (deploy/nginx.conf) in front of two `groupnotes
// serve` processes sharing PostgreSQL and Redis. Three nginx processes run the same site file:
// "front" balances over both instances, as in production; "pinA" and "pinB" have both upstream
// ports pointed at one instance each, so a test can say which instance a request or a WebSocket
// reaches while still passing through the shipped nginx configuration (round-robin through
// "front" alone would not be deterministic, and connecting to the instances directly would
// skip nginx's WebSocket settings).

const POSTGRES = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL! : 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const run = randomBytes(5).toString('hex');
const dbName = `groupnotes_deploy_${run}`;

let dir: string;
let databaseUrl: string;
let appA: AppInstance;
let appB: AppInstance;
let front: Nginx;
let pinA: Nginx;
let pinB: Nginx;
let alice: User;
let bob: User;
const clients: ProxyClient[] = [];

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function client(port = front.port, proto: 'https' | 'http' = 'https'): ProxyClient {
  const created = new ProxyClient(port, proto);
  clients.push(created);
  return created;
}

async function loggedIn(user: User, port = front.port): Promise<ProxyClient> {
  const browser = client(port);
  const reply = await browser.login(user.username, DEFAULT_PASSWORD);
  if (reply.status !== 302) throw new Error(`login of ${user.username} through nginx answered ${reply.status}`);
  return browser;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'groupnotes-deploy-'));
  // nginx workers run as an unprivileged user: they must reach their temp paths in here.
  chmodSync(dir, 0o755);
  await admin((c) => c.query(`create database ${dbName}`));
  const url = new URL(POSTGRES);
  url.pathname = `/${dbName}`;
  databaseUrl = url.toString();

  const env = {
    NODE_ENV: 'production',
    TRUST_PROXY: 'true',
    ALLOWED_HOSTS: 'notes.example.com',
    SECRET_KEY: randomBytes(48).toString('base64url'),
    DATABASE_URL: databaseUrl,
    REDIS_URL: REDIS,
    REDIS_PREFIX: `groupnotes-deploy-${run}:`,
    // Cheap hashes keep logins fast; hashing cost is not what this test is about.
    PBKDF2_ITERATIONS: '1000',
    LOG_LEVEL: 'info',
  };
  const [portA, portB, portFront, portPinA, portPinB] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  appA = new AppInstance('A', portA, env);
  appB = new AppInstance('B', portB, env);
  // Both start (and migrate the empty database) at the same moment, as after a deployment.
  await Promise.all([appA.start(), appB.start()]);
  front = new Nginx('front', portFront, [portA, portB], dir);
  pinA = new Nginx('pinA', portPinA, [portA, portA], dir);
  pinB = new Nginx('pinB', portPinB, [portB, portB], dir);
  await Promise.all([front.start(), pinA.start(), pinB.start()]);

  const database = openDatabase(databaseUrl, { poolSize: 1 });
  try {
    alice = await createUser(database.db, { username: `alice_${run}` });
    bob = await createUser(database.db, { username: `bob_${run}` });
  } finally {
    await database.close();
  }
});

afterAll(async () => {
  for (const each of clients) each.close();
  await Promise.all([front, pinA, pinB].filter(Boolean).map((nginx) => nginx.stop()));
  await Promise.all([appA, appB].filter(Boolean).map((app) => app.stop()));
  await admin((c) => c.query(`drop database if exists ${dbName} with (force)`)).catch(() => undefined);
  if (dir && !process.env.KEEP_DEPLOY_TMP) rmSync(dir, { recursive: true, force: true });
});

describe('nginx in front of two instances', () => {
  it('both instances migrated the same empty database at start without a conflict', async () => {
    const applied = [appA, appB].map((app) => app.output);
    for (const output of applied) expect(output).not.toMatch(/migration .* failed/);
    const recorded = await admin(async (c) => {
      await c.query(`select 1`);
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        return (await db.query<{ name: string; n: string }>('select name, count(*) as n from kysely_migration group by name')).rows;
      } finally {
        await db.end();
      }
    });
    expect(recorded.length).toBeGreaterThan(0);
    for (const row of recorded) expect(Number(row.n)).toBe(1);
  });

  it('logs in through the proxy: Secure session and CSRF cookies, HSTS', async () => {
    const browser = client();
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
    const sessions = await browser.get('/accounts/sessions/');
    expect(sessions.status).toBe(200);
    expect(sessions.body).toContain(alice.username);
  });

  it('redirects plain http to https from X-Forwarded-Proto, and ignores a forged X-Forwarded-Host', async () => {
    const plain = client(front.port, 'http');
    const reply = await plain.get('/accounts/login/?next=/notes/', { 'x-forwarded-host': 'evil.example' });
    expect(reply.status).toBe(301);
    expect(reply.headers.location).toBe('https://notes.example.com/accounts/login/?next=/notes/');
  });

  it('answers /healthz over plain http without a session or a cookie', async () => {
    const reply = await client(front.port, 'http').get('/healthz');
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ status: 'ok', checks: { database: 'ok' } });
    expect(reply.headers['set-cookie']).toBeUndefined();
  });

  it('serves /static/ from public/ itself, with long cache headers: no request reaches the app', async () => {
    const browser = client();
    const page = await browser.get('/accounts/login/');
    const href = /href="(\/static\/app\.css\?v=[0-9a-f]{10})"/.exec(page.body)?.[1];
    expect(href).toBeDefined();
    const css = await browser.get(href!);
    expect(css.status).toBe(200);
    expect(css.body).toBe(readFileSync(join(REPO, 'public/app.css'), 'utf8'));
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await browser.get('/static/no-such-file.css');
    expect(missing.status).toBe(404);

    const logged = [...appA.requests(), ...appB.requests()];
    expect(logged.some((line) => line.url.startsWith('/accounts/login/'))).toBe(true);
    expect(logged.filter((line) => line.url.startsWith('/static/'))).toEqual([]);
  });

  it('refuses a body over 1 MiB at the proxy', async () => {
    const browser = await loggedIn(bob);
    const before = appA.requests().length + appB.requests().length;
    const reply = await browser.send('POST', '/accounts/logout/', 'x'.repeat(1024 * 1024 + 1), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(reply.status).toBe(413);
    expect(appA.requests().length + appB.requests().length).toBe(before);
  });
});

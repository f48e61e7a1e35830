import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { buildTestApp, createTestDatabase, createUser, type TestApp, TestBrowser, testConfig } from '../../../test/index.js';
import { runChecks } from './service.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const sessionCount = async () => (await t.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

describe('GET /healthz', () => {
  it('answers 200 with every check ok, without a login', async () => {
    const response = await t.app.inject({ url: '/healthz', headers: { host: 'localhost' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(body.status).toBe('ok');
    expect(body.checks).toEqual({ database: 'ok' });
    expect(typeof body.ms).toBe('number');
  });

  it('never creates a session or sets a cookie, even for a logged-in browser', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    await browser.login(user.username);
    const before = await sessionCount();
    const anonymous = await t.app.inject({ url: '/healthz', headers: { host: 'localhost' } });
    const withCookies = await browser.get('/healthz');
    for (const response of [anonymous, withCookies]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(await sessionCount()).toBe(before);
  });

  it('is not redirected to a slashed path or to the login page', async () => {
    const response = await t.app.inject({ url: '/healthz/', headers: { host: 'localhost' } });
    expect(response.statusCode).toBe(404);
  });
});

describe('GET /healthz with a broken dependency', () => {
  it('answers 503 naming the failing check when the database is gone, and sets no cookie', async () => {
    const testDb = await createTestDatabase();
    const config = testConfig({ DATABASE_URL: testDb.url });
    const database = openDatabase(config.databaseUrl, { poolSize: 1 });
    await migrateToLatest(database.db);
    const app = await buildApp(config, { database });
    try {
      await database.close();
      const response = await app.inject({ url: '/healthz', headers: { host: 'localhost' } });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 'failing', checks: { database: 'failing' } });
      expect(response.headers['set-cookie']).toBeUndefined();
    } finally {
      await app.close();
      await testDb.drop();
    }
  });

  it('counts a check that does not answer in time as failing', async () => {
    const failures: string[] = [];
    const report = await runChecks(
      [
        { name: 'fast', run: async () => undefined },
        { name: 'hanging', run: () => new Promise<void>(() => undefined) },
      ],
      (name) => failures.push(name),
      50,
    );
    expect(report).toMatchObject({ status: 'failing', checks: { fast: 'ok', hanging: 'failing' } });
    expect(failures).toEqual(['hanging']);
  });
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { buildTestApp, createUser, type TestApp, TestBrowser, testConfig } from '../../../test/index.js';

/** The same database and secret with a higher PBKDF2_ITERATIONS: the operator raised the cost and restarted. */
async function withRaisedCost(t: TestApp, iterations: number): Promise<FastifyInstance> {
  const app = await buildApp(testConfig({ DATABASE_URL: t.config.databaseUrl, PBKDF2_ITERATIONS: String(iterations) }), { database: t.database });
  await app.ready();
  return app;
}

function sameCookies(from: TestBrowser, app: FastifyInstance): TestBrowser {
  const browser = new TestBrowser(app);
  for (const [name, value] of from.cookies) browser.cookies.set(name, value);
  return browser;
}

describe('raising PBKDF2_ITERATIONS', () => {
  let t: TestApp;
  let raised: FastifyInstance;
  beforeAll(async () => {
    t = await buildTestApp();
    raised = await withRaisedCost(t, 2000);
  });
  afterAll(async () => {
    await raised.close();
    await t.close();
  });

  it('keeps the user signed in on their other devices when the next login re-hashes the password', async () => {
    const user = await createUser(t.db);
    const phone = new TestBrowser(t.app);
    await phone.login(user.username);
    await new TestBrowser(raised).login(user.username);
    const stored = await t.db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(stored.password).toMatch(/^pbkdf2_sha256\$2000\$/);
    expect((await sameCookies(phone, raised).get('/notes/')).statusCode).toBe(200);
  });

  it('keeps every session of two logins that re-hash at the same moment', async () => {
    const user = await createUser(t.db);
    const [a, b] = [new TestBrowser(raised), new TestBrowser(raised)];
    await Promise.all([a.login(user.username), b.login(user.username)]);
    expect((await a.get('/notes/')).statusCode).toBe(200);
    expect((await b.get('/notes/')).statusCode).toBe(200);
  });

  it('still ends the other sessions when the password itself changes', async () => {
    const user = await createUser(t.db);
    const phone = new TestBrowser(raised);
    await phone.login(user.username);
    const laptop = new TestBrowser(raised);
    await laptop.login(user.username);
    const changed = await laptop.post('/accounts/password_change/', { old_password: 'correct-horse-battery', new_password1: 'a-new-long-passphrase-42', new_password2: 'a-new-long-passphrase-42' });
    expect(changed.statusCode).toBe(302);
    expect((await phone.get('/notes/')).statusCode).toBe(302);
  });
});

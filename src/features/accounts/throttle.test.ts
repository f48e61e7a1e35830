import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD, TestBrowser, type TestApp, buildTestApp, createUser } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ TRUST_PROXY: 'true' });
});
afterAll(() => t.close());

function from(ip: string) {
  return { headers: { 'x-forwarded-for': ip } };
}

describe('login throttling', () => {
  it('answers 429 after 5 failed logins for a username, even with the right password, from another address', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    for (let i = 0; i < 5; i++) {
      const failed = await browser.post('/accounts/login/', { username: user.username, password: 'wrong' }, from(`10.0.0.${i + 1}`));
      expect(failed.statusCode).toBe(400);
    }
    const blocked = await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, from('10.0.1.1'));
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
    expect(blocked.body).toContain('Too many failed logins');
    expect(browser.cookies.has('sessionid')).toBe(false);
  });

  it('answers 429 after 5 failed logins from one address, whatever the username', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    for (let i = 0; i < 5; i++) {
      await browser.post('/accounts/login/', { username: `someone${i}`, password: 'wrong' }, from('10.9.9.9'));
    }
    const blocked = await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, from('10.9.9.9'));
    expect(blocked.statusCode).toBe(429);
    const elsewhere = await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, from('10.9.9.10'));
    expect(elsewhere.statusCode).toBe(302);
  });

  it('lets a user in again once the 15-minute window has passed', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    for (let i = 0; i < 5; i++) await browser.post('/accounts/login/', { username: user.username, password: 'wrong' }, from('10.5.0.1'));
    expect((await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, from('10.5.0.2'))).statusCode).toBe(429);
    await t.db.updateTable('login_failures').set((eb) => ({ at: eb('at', '-', 15 * 60 * 1000) })).execute();
    expect((await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, from('10.5.0.2'))).statusCode).toBe(302);
  });

  it('forgives earlier failures of a username after a successful login', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    for (let i = 0; i < 4; i++) await browser.post('/accounts/login/', { username: user.username, password: 'wrong' }, from(`10.7.0.${i}`));
    expect((await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, from('10.7.1.1'))).statusCode).toBe(302);
    await browser.post('/accounts/login/', { username: user.username, password: 'wrong' }, from('10.7.2.1'));
    expect((await new TestBrowser(t.app).post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, from('10.7.3.1'))).statusCode).toBe(302);
  });
});

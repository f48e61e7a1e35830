import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, DEFAULT_PASSWORD, httpLoginForm, type TestApp, TestBrowser, testConfig } from '../../../test/index.js';
import { type RunningServer, startServer } from '../../server.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ TRUST_PROXY: 'true' });
});
afterAll(() => t.close());

function from(ip: string) {
  return { headers: { 'x-forwarded-for': ip } };
}

function countStatuses(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
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

  it('answers 429 after 100 failed logins from one address, whatever the username', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    for (let i = 0; i < 100; i++) {
      const failed = await browser.post('/accounts/login/', { username: `sprayed${i}`, password: 'wrong' }, from('10.9.9.9'));
      expect(failed.statusCode).toBe(400);
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

describe('login throttling under parallel requests', () => {
  it('checks exactly 5 of 40 wrong passwords sent at once for one username (400) and refuses the rest (429)', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    await browser.ensureCsrfCookie();
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => browser.post('/accounts/login/', { username: user.username, password: `wrong-${i}` }, from(`10.40.0.${i}`))),
    );
    expect(countStatuses(responses.map((response) => response.statusCode))).toEqual({ 400: 5, 429: 35 });
    const failures = await t.db.selectFrom('login_failures').select('id').where('scope', '=', `user:${user.username.toLowerCase()}`).execute();
    expect(failures).toHaveLength(5);
  });

  it('still signs in with the right password after a failure or two, and forgives them', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    for (let i = 0; i < 2; i++) expect((await browser.post('/accounts/login/', { username: user.username, password: 'wrong' }, from('10.41.0.1'))).statusCode).toBe(400);
    expect((await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, from('10.41.0.1'))).statusCode).toBe(302);
    const failures = await t.db.selectFrom('login_failures').select('id').where('scope', '=', `user:${user.username.toLowerCase()}`).execute();
    expect(failures).toHaveLength(0);
  });

  describe('through a real listening server', () => {
    let server: RunningServer;
    let base: string;
    beforeAll(async () => {
      server = await startServer(testConfig({ DATABASE_URL: t.config.databaseUrl, PORT: '0' }), { migrate: false });
      const address = server.app.server.address();
      base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    afterAll(() => server.close());

    it('checks exactly 5 of 40 wrong passwords sent at once for one username and answers the rest 429', async () => {
      const user = await createUser(t.db);
      const submit = await httpLoginForm(base);
      const login = (password: string) =>
        submit(user.username, password).then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        });
      const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => login(`wrong-${i}`)));
      expect(countStatuses(statuses)).toEqual({ 400: 5, 429: 35 });
    });
  });
});

describe('one person’s typos do not lock out the household', () => {
  it('lets user B in from the address where user A failed 5 times, and answers A’s 6th try 429 with the form and Retry-After', async () => {
    const [a, b] = [await createUser(t.db), await createUser(t.db)];
    const browser = new TestBrowser(t.app);
    for (let i = 0; i < 5; i++) expect((await browser.post('/accounts/login/', { username: a.username, password: 'typo' }, from('10.50.0.1'))).statusCode).toBe(400);

    const other = new TestBrowser(t.app);
    expect((await other.post('/accounts/login/', { username: b.username, password: DEFAULT_PASSWORD }, from('10.50.0.1'))).statusCode).toBe(302);

    const sixth = await browser.post('/accounts/login/', { username: a.username, password: DEFAULT_PASSWORD }, from('10.50.0.1'));
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(800);
    expect(sixth.body).toContain('Too many failed logins');
    expect(sixth.body).toMatch(/Try again in 1[45] minutes/);
    expect(sixth.body).toContain('<form method="post" action="/accounts/login/"');
    expect(sixth.body).toContain(`value="${a.username}"`);
  });

  it('tells how many tries are left once few are, the same for a username that does not exist', async () => {
    const user = await createUser(t.db);
    const left = async (username: string) => {
      const messages: string[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await new TestBrowser(t.app).post('/accounts/login/', { username, password: 'typo' }, from('10.51.0.1'));
        messages.push(/<div class="form-alert"[^>]*>(.*?)<\/div>/.exec(response.body)![1]!);
      }
      return messages;
    };
    const known = await left(user.username);
    expect(known[0]).not.toContain('left');
    expect(known[1]).toContain('3 attempts left before sign-in is paused for 15 minutes');
    expect(known[3]).toContain('1 attempt left before sign-in is paused for 15 minutes');
    expect(known[4]).toContain('Sign-in is now paused for 15 minutes');
    expect(await left('nobody-by-this-name')).toEqual(known);
  });
});

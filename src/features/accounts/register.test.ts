import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, type TestApp, TestBrowser } from '../../../test/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const GOOD = 'maple-syrup-river';

describe('registration', () => {
  it('creates the user, logs them in and redirects to /notes/', async () => {
    const browser = new TestBrowser(t.app);
    const response = await browser.post('/register/', { username: 'newcomer', email: 'new@example.com', password1: GOOD, password2: GOOD });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/notes/');
    const user = await t.db.selectFrom('users').selectAll().where('username', '=', 'newcomer').executeTakeFirstOrThrow();
    expect(user.email).toBe('new@example.com');
    expect(user.password).toMatch(/^pbkdf2_sha256\$1000\$/);
    expect(browser.cookies.get('sessionid')).toMatch(/^[a-z0-9]{32}$/);
  });

  it('refuses a username taken in another case, and stores nothing', async () => {
    await createUser(t.db, { username: 'Taken' });
    const response = await new TestBrowser(t.app).post('/register/', { username: 'taken', password1: GOOD, password2: GOOD });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('A user with that username already exists.');
    const rows = await t.db.selectFrom('users').select('id').where('username', '=', 'taken').execute();
    expect(rows).toHaveLength(0);
  });

  it('asks for an empty password once, without also calling it too short or different', async () => {
    const response = await new TestBrowser(t.app).post('/register/', { username: '', email: '', password1: '', password2: '' });
    expect(response.statusCode).toBe(400);
    const errors = (field: string, body: string) => [...(body.match(new RegExp(`<ul id="id_${field}_errors" class="field-errors">(.*?)</ul>`))?.[1] ?? '').matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);
    expect(errors('password1', response.body)).toEqual(['Enter a password.']);
    expect(errors('password2', response.body)).toEqual(['Enter the same password again.']);
    // A password typed without its confirmation is asked again, not called different.
    const half = await new TestBrowser(t.app).post('/register/', { username: 'halfway', password1: GOOD, password2: '' });
    expect(half.statusCode).toBe(400);
    expect(errors('password2', half.body)).toEqual(['Enter the same password again.']);
    expect(errors('password1', half.body)).toEqual([]);
  });

  it('shows every problem with its field and keeps what was typed (but not passwords)', async () => {
    const response = await new TestBrowser(t.app).post('/register/', {
      username: 'bad name!',
      email: 'not-an-email',
      password1: 'short',
      password2: 'different',
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Enter a valid username');
    expect(response.body).toContain('Enter a valid email address.');
    expect(response.body).toContain('didn’t match');
    expect(response.body).toContain('value="bad name!"');
    expect(response.body).not.toContain('value="short"');
  });

  it('applies the password rules', async () => {
    const response = await new TestBrowser(t.app).post('/register/', { username: 'rulesuser', password1: 'password', password2: 'password' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('This password is too common.');
  });

  it('refuses 10,000-character input with a form error, not a crash', async () => {
    const long = 'a'.repeat(10_000);
    const response = await new TestBrowser(t.app).post('/register/', { username: long, password1: long, password2: long });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Usernames have at most 150 characters.');
  });

  it('escapes what was typed when showing the form again', async () => {
    const response = await new TestBrowser(t.app).post('/register/', { username: '"><script>alert(1)</script>', password1: 'x', password2: 'y' });
    expect(response.statusCode).toBe(400);
    expect(response.body).not.toContain('<script>alert(1)</script>');
    expect(response.body).toContain('&lt;script>alert(1)&lt;/script>');
  });
});

describe('registration switched off', () => {
  let closed: TestApp;
  beforeAll(async () => {
    closed = await buildTestApp({ ALLOW_SIGNUP: 'false' });
  });
  afterAll(() => closed.close());

  it('answers 404 on /register/ and creates nobody', async () => {
    const browser = new TestBrowser(closed.app);
    expect((await browser.get('/register/')).statusCode).toBe(404);
    const response = await browser.post('/register/', { username: 'sneaky', password1: GOOD, password2: GOOD });
    expect(response.statusCode).toBe(404);
    expect(await closed.db.selectFrom('users').select('id').execute()).toHaveLength(0);
  });
});

describe('registration throttling', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await buildTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => proxied.close());

  const register = (username: string, ip: string) =>
    new TestBrowser(proxied.app).post('/register/', { username, password1: GOOD, password2: GOOD }, { headers: { 'x-forwarded-for': ip } });

  it('answers 429 with Retry-After and the form after 20 new accounts from one address in an hour, and creates nothing more', async () => {
    for (let i = 0; i < 20; i++) expect((await register(`household${i}`, '10.60.0.1')).statusCode).toBe(302);
    const refused = await register('onetoomany', '10.60.0.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(refused.body).toContain('Too many new accounts from your network. Try again in');
    expect(refused.body).toContain('<form method="post" action="/register/"');
    expect(await proxied.db.selectFrom('users').select('id').where('username', '=', 'onetoomany').execute()).toHaveLength(0);
    expect((await register('elsewhere', '10.60.0.2')).statusCode).toBe(302);
  });

  it('does not count a registration refused for its form', async () => {
    for (let i = 0; i < 25; i++) {
      const response = await new TestBrowser(proxied.app).post('/register/', { username: 'weakling', password1: 'password', password2: 'password' }, { headers: { 'x-forwarded-for': '10.61.0.1' } });
      expect(response.statusCode).toBe(400);
    }
    expect((await register('strongling', '10.61.0.1')).statusCode).toBe(302);
  });
});

describe('the sign-up limit setting (SIGNUP_LIMIT_PER_HOUR)', () => {
  /** An app of its own with `limit`, run through `check`, then closed. */
  async function withLimit(limit: string, check: (register: (username: string) => Promise<number>) => Promise<void>) {
    const limited = await buildTestApp({ TRUST_PROXY: 'true', SIGNUP_LIMIT_PER_HOUR: limit });
    try {
      await check(async (username) => (await new TestBrowser(limited.app).post('/register/', { username, password1: GOOD, password2: GOOD }, { headers: { 'x-forwarded-for': '10.62.0.1' } })).statusCode);
    } finally {
      await limited.close();
    }
  }

  it('set to 2, refuses the third new account from one address with 429', async () => {
    await withLimit('2', async (register) => {
      expect([await register('first'), await register('second'), await register('third')]).toEqual([302, 302, 429]);
    });
  });

  it('set to 0, limits no address', async () => {
    await withLimit('0', async (register) => {
      for (let i = 0; i < 21; i++) expect(await register(`unlimited${i}`)).toBe(302);
    });
  });
});

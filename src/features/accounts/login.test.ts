import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, DEFAULT_PASSWORD, loggedIn, type TestApp, TestBrowser } from '../../../test/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

function setCookie(response: { headers: Record<string, unknown> }, name: string): string {
  const all = [response.headers['set-cookie'] ?? []].flat() as string[];
  const found = all.find((cookie) => cookie.startsWith(`${name}=`));
  if (!found) throw new Error(`no Set-Cookie for ${name} in ${JSON.stringify(all)}`);
  return found;
}

function sessionRows(userId: number) {
  return t.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();
}

describe('anonymous -> authenticated (POST login with matching credentials)', () => {
  it('creates a session holding the user id, sets sessionid and redirects to /notes/', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    const response = await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD });

    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/notes/');
    const rows = await sessionRows(user.id);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.session_data)._auth_user_id).toBe(String(user.id));
    expect(browser.cookies.get('sessionid')).toBe(rows[0]!.session_key);
    expect(rows[0]!.session_key).toMatch(/^[a-z0-9]{32}$/);
  });

  it('records the time of the login as the last login; a wrong password does not', async () => {
    const user = await createUser(t.db);
    const lastLogin = async () => (await t.db.selectFrom('users').select('last_login').where('id', '=', user.id).executeTakeFirstOrThrow()).last_login;
    await new TestBrowser(t.app).post('/accounts/login/', { username: user.username, password: 'wrong-password' });
    expect(await lastLogin()).toBeNull();
    const startedAt = Date.now();
    await new TestBrowser(t.app).login(user.username);
    expect(Number(await lastLogin())).toBeGreaterThanOrEqual(startedAt);
  });

  it('sets the sessionid cookie HttpOnly, SameSite=Lax, Path=/, for two weeks, not Secure outside production', async () => {
    const user = await createUser(t.db);
    const response = await new TestBrowser(t.app).post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD });
    const cookie = setCookie(response, 'sessionid');

    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=(1209600|1209599)/);
    const expires = new Date(/Expires=([^;]+)/.exec(cookie)![1]!).getTime();
    expect(Math.abs(expires - (Date.now() + 1_209_600_000))).toBeLessThan(5_000);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('accepts the username in another case', async () => {
    const user = await createUser(t.db, { username: 'CaseUser' });
    const response = await new TestBrowser(t.app).post('/accounts/login/', { username: 'caseuser', password: DEFAULT_PASSWORD });
    expect(response.statusCode).toBe(302);
    expect(await sessionRows(user.id)).toHaveLength(1);
  });
});

describe('anonymous -> anonymous (POST login with wrong credentials)', () => {
  it('shows the form again with an error, sets no session cookie and stores no session', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    const response = await browser.post('/accounts/login/', { username: user.username, password: 'wrong-password' });

    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Please enter a correct username and password');
    expect(response.body).toContain(`value="${user.username}"`);
    expect([response.headers['set-cookie'] ?? []].flat().join()).not.toContain('sessionid=');
    expect(await sessionRows(user.id)).toHaveLength(0);
  });

  it('answers an unknown username exactly like a wrong password', async () => {
    const user = await createUser(t.db);
    const wrong = await new TestBrowser(t.app).post('/accounts/login/', { username: user.username, password: 'nope-nope-nope' });
    const unknown = await new TestBrowser(t.app).post('/accounts/login/', { username: 'nobody-here', password: 'nope-nope-nope' });
    const message = (body: string) => /<div class="form-alert"[^>]*>(.*?)<\/div>/.exec(body)?.[1];
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(message(unknown.body)).toBeDefined();
    expect(message(unknown.body)).toBe(message(wrong.body));
  });

  it('shows a clear error for an empty form', async () => {
    const response = await new TestBrowser(t.app).post('/accounts/login/', { username: '', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Enter your username.');
    expect(response.body).toContain('Enter your password.');
  });
});

describe('authenticated -> anonymous (POST logout)', () => {
  it('deletes the session, clears the cookie with a past expiry and redirects to the login page', async () => {
    const { user, browser } = await loggedIn(t);
    const oldKey = browser.cookies.get('sessionid')!;
    const response = await browser.post('/accounts/logout/');

    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/login/');
    const cookie = setCookie(response, 'sessionid');
    expect(cookie).toMatch(/^sessionid=;/);
    expect(new Date(/Expires=([^;]+)/.exec(cookie)![1]!).getTime()).toBeLessThan(Date.now());
    expect(await sessionRows(user.id)).toHaveLength(0);

    const replay = await t.app.inject({ url: '/accounts/password_change/', headers: { host: 'localhost', cookie: `sessionid=${oldKey}` } });
    expect(replay.statusCode).toBe(302);
    expect(replay.headers.location).toBe('/accounts/login/?next=%2Faccounts%2Fpassword_change%2F');
  });

  it('shows "You have been logged out." once, on the next page', async () => {
    const { browser } = await loggedIn(t);
    await browser.post('/accounts/logout/');
    const first = await browser.get('/accounts/login/');
    expect(first.body).toContain('You have been logged out.');
    const second = await browser.get('/accounts/login/');
    expect(second.body).not.toContain('You have been logged out.');
  });

  it('refuses GET on the logout path with 405', async () => {
    const { browser } = await loggedIn(t);
    const response = await browser.get('/accounts/logout/');
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
  });
});

describe('authenticated and anonymous requests', () => {
  it('makes the stored user the request user while the session exists', async () => {
    const { user, browser } = await loggedIn(t);
    const response = await browser.get('/accounts/password_change/');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`>${user.username}</a>`);
  });

  it('redirects an anonymous GET of a protected path to the login page with next', async () => {
    const response = await new TestBrowser(t.app).get('/accounts/password_change/?x=1');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/login/?next=%2Faccounts%2Fpassword_change%2F%3Fx%3D1');
  });

  it('treats an unknown, malformed or expired session cookie as anonymous', async () => {
    const { user, browser } = await loggedIn(t);
    await t.db.updateTable('sessions').set({ expire_date: Date.now() - 1000 }).where('user_id', '=', user.id).execute();
    const expired = await browser.get('/accounts/password_change/');
    expect(expired.statusCode).toBe(302);
    for (const cookie of ['sessionid=abc', `sessionid=${'a'.repeat(32)}`, "sessionid=' or 1=1 --"]) {
      const response = await t.app.inject({ url: '/accounts/password_change/', headers: { host: 'localhost', cookie } });
      expect(response.statusCode).toBe(302);
    }
  });
});

describe('session fixation', () => {
  it('rotates the session key and the CSRF secret at login', async () => {
    const user = await createUser(t.db);
    const { browser } = await loggedIn(t);
    const keyBefore = browser.cookies.get('sessionid')!;
    const csrfBefore = browser.cookies.get('csrftoken')!;

    await browser.login(user.username);
    const keyAfter = browser.cookies.get('sessionid')!;
    expect(keyAfter).not.toBe(keyBefore);
    expect(browser.cookies.get('csrftoken')).not.toBe(csrfBefore);
    const old = await t.db.selectFrom('sessions').select('session_key').where('session_key', '=', keyBefore).executeTakeFirst();
    expect(old).toBeUndefined();
  });

  it('ignores a session key planted before login', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    browser.cookies.set('sessionid', 'plantedkey0123456789abcdefghijkl');
    await browser.login(user.username);
    expect(browser.cookies.get('sessionid')).not.toBe('plantedkey0123456789abcdefghijkl');
  });
});

describe('the next parameter', () => {
  it('follows a same-site path after login', async () => {
    const user = await createUser(t.db);
    const response = await new TestBrowser(t.app).post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD, next: '/groups/?a=1' });
    expect(response.headers.location).toBe('/groups/?a=1');
  });

  it.each(['//evil.example/', '/\\evil.example/', 'https://evil.example/', 'http:evil.example', '/\t/evil.example', 'javascript:alert(1)', '\\\\evil.example'])(
    'never redirects off-site for next=%j',
    async (next) => {
      const user = await createUser(t.db);
      const response = await new TestBrowser(t.app).post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD, next });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/notes/');
    },
  );

  it('carries next from the query string into the form', async () => {
    const response = await new TestBrowser(t.app).get('/accounts/login/?next=%2Fgroups%2F');
    expect(response.body).toContain('name="next" value="/groups/"');
    const evil = await new TestBrowser(t.app).get('/accounts/login/?next=%2F%2Fevil.example');
    expect(evil.body).not.toContain('evil.example');
  });

  it('gives every visitor the form with their own next, however often the page was shown before', async () => {
    const browser = new TestBrowser(t.app);
    for (const next of ['/groups/', '/tags/', '/groups/']) {
      const response = await browser.get(`/accounts/login/?next=${encodeURIComponent(next)}`);
      expect(response.body).toContain(`name="next" value="${next}"`);
    }
    const plain = await browser.get('/accounts/login/');
    expect(plain.body).not.toContain('name="next" value="/');
  });
});

describe('hash upgrade', () => {
  it('re-hashes a password stored with fewer iterations than configured at the next successful login', async () => {
    const user = await createUser(t.db, { iterations: 500 });
    expect(user.password).toMatch(/^pbkdf2_sha256\$500\$/);
    await new TestBrowser(t.app).login(user.username);
    const stored = await t.db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(stored.password).toMatch(/^pbkdf2_sha256\$1000\$/);
    await expect(new TestBrowser(t.app).login(user.username)).resolves.toBeDefined();
  });

  it('leaves the hash alone after a failed login', async () => {
    const user = await createUser(t.db, { iterations: 500 });
    await new TestBrowser(t.app).post('/accounts/login/', { username: user.username, password: 'wrong-one' });
    const stored = await t.db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(stored.password).toBe(user.password);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../platform/passwords/passwords.js';
import { buildTestApp, createUser, DEFAULT_PASSWORD, type TestApp, TestBrowser } from '../../../test/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const NEW_PASSWORD = 'lighthouse-keeper-42';

describe('password change', () => {
  it('changes the password, keeps this session and ends every other session of the user', async () => {
    const user = await createUser(t.db);
    const here = new TestBrowser(t.app);
    const elsewhere = new TestBrowser(t.app);
    await here.login(user.username);
    await elsewhere.login(user.username);

    const response = await here.post('/accounts/password_change/', {
      old_password: DEFAULT_PASSWORD,
      new_password1: NEW_PASSWORD,
      new_password2: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/password_change/done/');

    const done = await here.get('/accounts/password_change/done/');
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Your password was changed.');
    const other = await elsewhere.get('/accounts/password_change/');
    expect(other.statusCode).toBe(302);
    expect(other.headers.location).toMatch(/^\/accounts\/login\//);

    const stored = await t.db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect((await verifyPassword(NEW_PASSWORD, stored.password, 1000)).ok).toBe(true);
    await expect(new TestBrowser(t.app).login(user.username, NEW_PASSWORD)).resolves.toBeDefined();
  });

  it('ends a session whose auth hash no longer matches the password (changed elsewhere)', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    await browser.login(user.username);
    await t.db.updateTable('users').set({ password: 'pbkdf2_sha256$1000$othersalt$AAAA' }).where('id', '=', user.id).execute();
    const response = await browser.get('/accounts/password_change/');
    expect(response.statusCode).toBe(302);
    const rows = await t.db.selectFrom('sessions').select('session_key').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(0);
  });

  it('refuses a wrong old password and changes nothing', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    await browser.login(user.username);
    const before = await t.db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow();
    const response = await browser.post('/accounts/password_change/', {
      old_password: 'not-my-password',
      new_password1: NEW_PASSWORD,
      new_password2: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Your old password was entered incorrectly.');
    const after = await t.db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(after.password).toBe(before.password);
  });

  it('refuses mismatched or weak new passwords with messages next to the field', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    await browser.login(user.username);
    const mismatch = await browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: NEW_PASSWORD, new_password2: 'other' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain('id="id_new_password2_errors"');
    const weak = await browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: '12345678', new_password2: '12345678' });
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('This password is entirely numeric.');
  });
});

describe('password change throttling', () => {
  it('answers 429 with Retry-After and the form after 5 wrong current passwords, even for the right one, and changes nothing', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    await browser.login(user.username);
    const change = (old_password: string) => browser.post('/accounts/password_change/', { old_password, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    for (let i = 0; i < 5; i++) expect((await change(`guess-${i}`)).statusCode).toBe(400);
    const refused = await change(DEFAULT_PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    expect(refused.body).toContain('Too many wrong passwords. Try again in');
    expect(refused.body).toContain('<form method="post" action="/accounts/password_change/"');
    const stored = await t.db.selectFrom('users').select('password').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(stored.password).toBe(user.password);
  });

  it('does not count a right current password whose new password was refused', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app);
    await browser.login(user.username);
    for (let i = 0; i < 6; i++) {
      const weak = await browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: '12345678', new_password2: '12345678' });
      expect(weak.statusCode).toBe(400);
    }
    const changed = await browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    expect(changed.statusCode).toBe(302);
  });
});

describe('my sessions', () => {
  it('lists the caller’s sessions and logs out everywhere else', async () => {
    const user = await createUser(t.db);
    const here = new TestBrowser(t.app);
    const elsewhere = new TestBrowser(t.app);
    await here.login(user.username);
    await elsewhere.login(user.username);
    const page = await here.get('/accounts/sessions/');
    expect(page.statusCode).toBe(200);
    expect(page.body.match(/<tr>/g)?.length).toBe(3);
    expect(page.body).toContain('this browser');

    const response = await here.post('/accounts/sessions/');
    expect(response.statusCode).toBe(302);
    expect((await elsewhere.get('/accounts/sessions/')).statusCode).toBe(302);
    expect((await here.get('/accounts/sessions/')).statusCode).toBe(200);
  });
});

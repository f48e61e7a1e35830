import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DEFAULT_PASSWORD, enrolledUser, loggedIn, shownSecret, type TestApp, TestBrowser, totpCode } from '../../../test/index.js';

// A session alone (a stolen cookie, a shared computer left signed in) must not take the account
// over: changing the email address, turning two-factor sign-in on and making an access token each
// take the current password in the same form, and the code as well while 2FA is on.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const storedEmail = async (id: number) => (await t.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;
const queuedTo = async (address: string) => (await t.db.selectFrom('mail_outbox').select('id').where('recipient', '=', address).execute()).length;
const tokenCount = async (id: number) => (await t.db.selectFrom('access_tokens').select('id').where('user_id', '=', id).execute()).length;
const twoFactorOn = async (id: number) => (await t.db.selectFrom('users').select('totp_enabled').where('id', '=', id).executeTakeFirstOrThrow()).totp_enabled === 1;
const WRONG_CODE = (secret: string) => totpCode(secret, Date.now() - 10 * 60_000);

describe('changing the email address', () => {
  it('is refused with the session alone: the form again (400), nothing saved, and a reset for the new address mails nothing', async () => {
    const { user, browser } = await loggedIn(t, { email: 'owner@example.test' });
    const page = (await browser.get('/accounts/')).body;
    expect(page).toContain('name="password"');
    expect(page).not.toContain('name="code"');
    const refused = await browser.post('/accounts/', { email: 'thief@example.test', timezone: 'UTC' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Enter your current password to confirm it is you.');
    expect(refused.body).toContain('value="thief@example.test"');
    expect(await storedEmail(user.id)).toBe('owner@example.test');

    const reset = await new TestBrowser(t.app, 'localhost', '10.9.0.1').post('/accounts/password_reset/', { email: 'thief@example.test' });
    expect(reset.statusCode).toBe(302);
    expect(await queuedTo('thief@example.test')).toBe(0);
  });

  it('is refused with a wrong password, which counts with the password-change form’s wrong guesses', async () => {
    const { user, browser } = await loggedIn(t, { email: 'guarded@example.test' });
    for (let i = 0; i < 5; i++) {
      const wrong = await browser.post('/accounts/', { email: 'thief@example.test', timezone: 'UTC', password: `guess-${i}` });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.body).toContain('Your password was entered incorrectly.');
    }
    const paused = await browser.post('/accounts/', { email: 'thief@example.test', timezone: 'UTC', password: DEFAULT_PASSWORD });
    expect(paused.statusCode).toBe(429);
    expect(paused.headers['retry-after']).toBeDefined();
    expect(await storedEmail(user.id)).toBe('guarded@example.test');
    expect((await browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: 'quiet-meadow-58', new_password2: 'quiet-meadow-58' })).statusCode).toBe(429);
  });

  it('is saved with the current password; the time zone, currency and language alone need none', async () => {
    const { user, browser } = await loggedIn(t, { email: 'mover@example.test' });
    expect((await browser.post('/accounts/', { email: 'mover@example.test', timezone: 'Europe/Kyiv', currency: 'EUR' })).statusCode).toBe(302);
    const saved = await browser.post('/accounts/', { email: 'moved@example.test', timezone: 'Europe/Kyiv', password: DEFAULT_PASSWORD });
    expect(saved.statusCode).toBe(302);
    expect(saved.headers.location).toBe('/accounts/');
    expect(await storedEmail(user.id)).toBe('moved@example.test');
    // Clearing the address is a change too: where reset links go (nowhere) is the owner's call.
    expect((await browser.post('/accounts/', { email: '', timezone: 'UTC' })).statusCode).toBe(400);
    expect(await storedEmail(user.id)).toBe('moved@example.test');
  });

  it('takes a code as well while two-factor sign-in is on', async () => {
    const { user, browser, secret, nextCode } = await enrolledUser(t);
    expect((await browser.get('/accounts/')).body).toContain('name="code"');
    const passwordOnly = await browser.post('/accounts/', { email: 'new@example.test', timezone: 'UTC', password: DEFAULT_PASSWORD });
    expect(passwordOnly.statusCode).toBe(400);
    expect(passwordOnly.body).toContain('Enter a code from your app, or a recovery code.');
    const wrongCode = await browser.post('/accounts/', { email: 'new@example.test', timezone: 'UTC', password: DEFAULT_PASSWORD, code: WRONG_CODE(secret) });
    expect(wrongCode.statusCode).toBe(400);
    expect(await storedEmail(user.id)).toBe('');
    expect((await browser.post('/accounts/', { email: 'new@example.test', timezone: 'UTC', password: DEFAULT_PASSWORD, code: nextCode() })).statusCode).toBe(302);
    expect(await storedEmail(user.id)).toBe('new@example.test');
  });
});

describe('turning two-factor sign-in on', () => {
  it('is refused with the session alone, even with a right code: it stays off and the other sessions live', async () => {
    const { user, browser } = await loggedIn(t);
    const phone = new TestBrowser(t.app);
    await phone.login(user.username);
    const secret = shownSecret((await browser.get('/accounts/2fa/')).body);
    const refused = await browser.post('/accounts/2fa/', { code: totpCode(secret) });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Enter your current password to confirm it is you.');
    expect(shownSecret(refused.body)).toBe(secret);
    const wrong = await browser.post('/accounts/2fa/', { code: totpCode(secret), password: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(await twoFactorOn(user.id)).toBe(false);
    expect((await phone.get('/notes/')).statusCode).toBe(200);
    expect((await browser.post('/accounts/2fa/', { code: totpCode(secret), password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    expect(await twoFactorOn(user.id)).toBe(true);
  });
});

describe('creating an access token', () => {
  it('is refused with the session alone or a wrong password, and made with the password', async () => {
    const { user, browser } = await loggedIn(t);
    const alone = await browser.post('/accounts/tokens/new/', { name: 'backdoor', scope: 'write' });
    expect(alone.statusCode).toBe(400);
    expect(alone.body).toContain('Enter your current password to confirm it is you.');
    expect(alone.body).toContain('value="backdoor"');
    expect((await browser.post('/accounts/tokens/new/', { name: 'backdoor', scope: 'write', password: 'not-the-password' })).statusCode).toBe(400);
    expect(await tokenCount(user.id)).toBe(0);
    expect((await browser.post('/accounts/tokens/new/', { name: 'backup', scope: 'write', password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    expect(await tokenCount(user.id)).toBe(1);
  });

  it('takes a code as well while two-factor sign-in is on', async () => {
    const { user, browser, nextCode } = await enrolledUser(t);
    expect((await browser.get('/accounts/tokens/')).body).toContain('name="code"');
    expect((await browser.post('/accounts/tokens/new/', { name: 'backup', scope: 'read', password: DEFAULT_PASSWORD })).statusCode).toBe(400);
    expect(await tokenCount(user.id)).toBe(0);
    expect((await browser.post('/accounts/tokens/new/', { name: 'backup', scope: 'read', password: DEFAULT_PASSWORD, code: nextCode() })).statusCode).toBe(200);
    expect(await tokenCount(user.id)).toBe(1);
  });

  it('cannot be done with a token: the API has no way to make tokens or change the email address', async () => {
    const { browser } = await loggedIn(t);
    const made = await browser.post('/accounts/tokens/new/', { name: 'script', scope: 'write', password: DEFAULT_PASSWORD });
    const token = /<code class="token-value">(gnp_[A-Za-z0-9]+)<\/code>/.exec(made.body)![1]!;
    const bearer = { authorization: `Bearer ${token}` };
    const page = await t.app.inject({ method: 'POST', url: '/accounts/tokens/new/', headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=more&scope=write' });
    expect(page.statusCode).not.toBe(200);
    const email = await t.app.inject({ method: 'POST', url: '/accounts/', headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=x%40example.test&timezone=UTC' });
    expect([302, 403]).toContain(email.statusCode);
    expect(email.headers.location ?? '').not.toBe('/accounts/');
  });
});

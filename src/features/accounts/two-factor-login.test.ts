import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { atCodeStep, buildTestApp, enrolledUser, type TestApp, TestBrowser, totpCode } from '../../../test/index.js';
import { UsersRepository } from './repository.js';
import { hashPassword } from '../../platform/passwords/passwords.js';
import { PENDING_TTL_MS } from './two-factor-pending.js';
import { encodeUid, makeResetToken } from './reset-tokens.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const sessionCount = async (userId: number) => (await t.db.selectFrom('sessions').select('session_key').where('user_id', '=', userId).execute()).length;
const WRONG = (secret: string) => totpCode(secret, Date.now() - 10 * 60_000);

describe('signing in with two-factor sign-in on', () => {
  it('answers the right password with the code step: no session and no sessionid yet', async () => {
    const { user } = await enrolledUser(t);
    const before = await sessionCount(user.id);
    const browser = await atCodeStep(t, user.username);
    expect(browser.cookies.has('sessionid')).toBe(false);
    expect(await sessionCount(user.id)).toBe(before);
    // Nothing protected is reachable from the pending state.
    const notes = await browser.get('/notes/');
    expect(notes.statusCode).toBe(302);
    expect(notes.headers.location).toBe('/accounts/login/?next=%2Fnotes%2F');
    const page = await browser.get('/accounts/login/2fa/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="code"');
  });

  it('signs in with the code from the app: a session, and /notes/', async () => {
    const { user, nextCode } = await enrolledUser(t);
    const before = await sessionCount(user.id);
    const browser = await atCodeStep(t, user.username);
    const response = await browser.post('/accounts/login/2fa/', { code: nextCode() });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/notes/');
    expect(browser.cookies.has('sessionid')).toBe(true);
    expect(browser.cookies.has('login_2fa')).toBe(false);
    expect(await sessionCount(user.id)).toBe(before + 1);
    expect((await browser.get('/notes/')).statusCode).toBe(200);
  });

  it('records the last login only once the code is given, so that the password alone does not end a reset link', async () => {
    const { user, secret, nextCode } = await enrolledUser(t);
    const lastLogin = async () => (await t.db.selectFrom('users').select('last_login').where('id', '=', user.id).executeTakeFirstOrThrow()).last_login;
    const before = await lastLogin();
    const stored = await new UsersRepository(t.db).findById(user.id);
    const link = `/accounts/reset/${encodeUid(user.id)}/${makeResetToken(t.config.secretKey, stored!)}/`;
    const browser = await atCodeStep(t, user.username);
    expect(await lastLogin()).toBe(before);
    // Whoever knows only the password cannot spoil the owner's reset link.
    expect((await new TestBrowser(t.app).get(link)).statusCode).toBe(200);
    expect((await browser.post('/accounts/login/2fa/', { code: WRONG(secret) })).statusCode).toBe(400);
    expect(await lastLogin()).toBe(before);
    const startedAt = Date.now();
    expect((await browser.post('/accounts/login/2fa/', { code: nextCode() })).statusCode).toBe(302);
    expect(Number(await lastLogin())).toBeGreaterThanOrEqual(startedAt);
    expect((await new TestBrowser(t.app).get(link)).statusCode).toBe(400);
  });

  it('refuses a wrong code: the form again, still not signed in', async () => {
    const { user, secret } = await enrolledUser(t);
    const browser = await atCodeStep(t, user.username);
    const response = await browser.post('/accounts/login/2fa/', { code: WRONG(secret) });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('That code is not right');
    expect(browser.cookies.has('sessionid')).toBe(false);
  });

  it('refuses a TOTP code already used, even from another browser', async () => {
    const { user, nextCode } = await enrolledUser(t);
    const code = nextCode();
    expect((await (await atCodeStep(t, user.username)).post('/accounts/login/2fa/', { code })).statusCode).toBe(302);
    const again = await atCodeStep(t, user.username);
    const replayed = await again.post('/accounts/login/2fa/', { code });
    expect(replayed.statusCode).toBe(400);
    expect(again.cookies.has('sessionid')).toBe(false);
  });

  it('refuses the code that turned 2FA on', async () => {
    const { user, secret } = await enrolledUser(t);
    const browser = await atCodeStep(t, user.username);
    expect((await browser.post('/accounts/login/2fa/', { code: totpCode(secret) })).statusCode).toBe(400);
  });

  it('accepts a recovery code once', async () => {
    const { user, recoveryCodes } = await enrolledUser(t);
    const first = await atCodeStep(t, user.username);
    expect((await first.post('/accounts/login/2fa/', { code: recoveryCodes[3] })).headers.location).toBe('/notes/');
    expect(first.cookies.has('sessionid')).toBe(true);
    expect((await first.get('/accounts/2fa/')).body).toContain('9 recovery codes are');

    const second = await atCodeStep(t, user.username);
    expect((await second.post('/accounts/login/2fa/', { code: recoveryCodes[3] })).statusCode).toBe(400);
    expect(second.cookies.has('sessionid')).toBe(false);
    // Typed in capitals and without dashes, another one still works.
    const third = await atCodeStep(t, user.username);
    expect((await third.post('/accounts/login/2fa/', { code: recoveryCodes[4]!.replace(/-/g, '').toUpperCase() })).statusCode).toBe(302);
  });

  it('lets one of three sign-ins sent at once with the same code through, whichever kind', async () => {
    const { user, nextCode, recoveryCodes } = await enrolledUser(t);
    for (const code of [nextCode(), recoveryCodes[0]]) {
      const browsers = await Promise.all([atCodeStep(t, user.username), atCodeStep(t, user.username), atCodeStep(t, user.username)]);
      const answers = await Promise.all(browsers.map((browser) => browser.post('/accounts/login/2fa/', { code })));
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([302, 400, 400]);
    }
  });

  it('pauses codes after five wrong ones, even the right code, with Retry-After', async () => {
    const { user, secret, nextCode } = await enrolledUser(t);
    const browser = await atCodeStep(t, user.username);
    for (let i = 0; i < 5; i++) expect((await browser.post('/accounts/login/2fa/', { code: WRONG(secret) })).statusCode).toBe(400);
    const paused = await browser.post('/accounts/login/2fa/', { code: nextCode() });
    expect(paused.statusCode).toBe(429);
    expect(paused.body).toContain('Too many wrong codes. Try again in 15 minutes.');
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(800);
    expect(browser.cookies.has('sessionid')).toBe(false);
    // A new password step does not reset the count: it is the user's, not the browser's.
    const fresh = await atCodeStep(t, user.username);
    expect((await fresh.post('/accounts/login/2fa/', { code: nextCode() })).statusCode).toBe(429);
  });

  it('counts wrong codes per user: another user is not paused by them', async () => {
    const a = await enrolledUser(t);
    const b = await enrolledUser(t);
    const browser = await atCodeStep(t, a.user.username);
    for (let i = 0; i < 5; i++) await browser.post('/accounts/login/2fa/', { code: WRONG(a.secret) });
    const other = await atCodeStep(t, b.user.username);
    expect((await other.post('/accounts/login/2fa/', { code: b.nextCode() })).statusCode).toBe(302);
  });

  it('keeps a same-site next through the code step, and drops another site', async () => {
    const { user, nextCode, recoveryCodes } = await enrolledUser(t);
    const browser = await atCodeStep(t, user.username, { next: '/notebooks/?page=2' });
    expect((await browser.post('/accounts/login/2fa/', { code: nextCode() })).headers.location).toBe('/notebooks/?page=2');

    const elsewhere = await atCodeStep(t, user.username, { next: '//evil.example/' });
    expect((await elsewhere.post('/accounts/login/2fa/', { code: recoveryCodes[0] })).headers.location).toBe('/notes/');
  });

  it('still takes the code just before five minutes, and sends back to login after', async () => {
    const { user, secret } = await enrolledUser(t);
    const start = Date.now();
    const inTime = await atCodeStep(t, user.username);
    const late = await atCodeStep(t, user.username);
    vi.useFakeTimers({ toFake: ['Date'] });

    vi.setSystemTime(start + PENDING_TTL_MS - 20_000);
    expect((await inTime.post('/accounts/login/2fa/', { code: totpCode(secret) })).statusCode).toBe(302);

    vi.setSystemTime(start + PENDING_TTL_MS + 60_000);
    const expired = await late.post('/accounts/login/2fa/', { code: totpCode(secret) });
    expect(expired.statusCode).toBe(302);
    expect(expired.headers.location).toBe('/accounts/login/');
    expect(late.cookies.has('sessionid')).toBe(false);
    expect((await late.get('/accounts/login/')).body).toContain('Your sign-in timed out');
  });

  it('ends the pending sign-in when the password changes meanwhile', async () => {
    const { user, nextCode } = await enrolledUser(t);
    const browser = await atCodeStep(t, user.username);
    await new UsersRepository(t.db).setPassword(user.id, await hashPassword('another-password-42', 1000));
    const response = await browser.post('/accounts/login/2fa/', { code: nextCode() });
    expect(response.headers.location).toBe('/accounts/login/');
    expect(browser.cookies.has('sessionid')).toBe(false);
  });

  it('sends a browser with no pending sign-in, or a forged one, back to login', async () => {
    const { user, nextCode } = await enrolledUser(t);
    const browser = await atCodeStep(t, user.username);
    const cookie = browser.cookies.get('login_2fa')!;
    const forged = decodeURIComponent(cookie).replace(/"userId":\d+/, `"userId":${user.id + 1}`);
    expect(forged).not.toBe(decodeURIComponent(cookie));
    browser.cookies.set('login_2fa', encodeURIComponent(forged));
    expect((await browser.post('/accounts/login/2fa/', { code: nextCode() })).headers.location).toBe('/accounts/login/');
    browser.cookies.delete('login_2fa');
    expect((await browser.get('/accounts/login/2fa/')).headers.location).toBe('/accounts/login/');
  });
});

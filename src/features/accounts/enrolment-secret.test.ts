import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atCodeStep, buildTestApp, DEFAULT_PASSWORD, loggedIn, shownSecret, type TestApp, TestBrowser, totpCode } from '../../../test/index.js';

// The secret two-factor sign-in is turned on with is one nobody saw before the enrolment that
// confirms it: new at each opening of the setup page, kept by that session only, and dropped
// when the password changes. Whoever once saw the page cannot read the owner's codes later.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const NEW_PASSWORD = 'harbour-lantern-93';
const storedSecret = async (id: number) => (await t.db.selectFrom('users').select('totp_secret').where('id', '=', id).executeTakeFirstOrThrow()).totp_secret;
const enable = (browser: TestBrowser, secret: string, password = DEFAULT_PASSWORD) => browser.post('/accounts/2fa/', { code: totpCode(secret), password });

describe('the secret two-factor sign-in is enrolled with', () => {
  it('differs between two sessions of the user, and one session cannot turn it on with the other’s', async () => {
    const { user, browser } = await loggedIn(t);
    const borrowed = new TestBrowser(t.app);
    await borrowed.login(user.username);
    const seen = shownSecret((await borrowed.get('/accounts/2fa/')).body);
    const owners = shownSecret((await browser.get('/accounts/2fa/')).body);
    expect(owners).not.toBe(seen);
    // The borrowed session's codes are not the owner's enrolment's.
    const mixed = await enable(browser, seen);
    expect(mixed.statusCode).toBe(400);
    expect(mixed.body).toContain('That code is not right');
    expect((await enable(browser, owners)).statusCode).toBe(200);
    expect(await storedSecret(user.id)).toBe(owners);
  });

  it('is a new one when the page is opened again, and the codes of one seen before do not sign in', async () => {
    const { user, browser } = await loggedIn(t);
    const seenEarlier = shownSecret((await browser.get('/accounts/2fa/')).body);
    const current = shownSecret((await browser.get('/accounts/2fa/')).body);
    expect(current).not.toBe(seenEarlier);
    expect((await enable(browser, seenEarlier)).statusCode).toBe(400);
    expect((await enable(browser, current)).statusCode).toBe(200);
    const intruder = await atCodeStep(t, user.username);
    const refused = await intruder.post('/accounts/login/2fa/', { code: totpCode(seenEarlier, Date.now() + 30_000) });
    expect(refused.statusCode).toBe(400);
    expect(intruder.cookies.has('sessionid')).toBe(false);
  });

  it('does not survive a password change: the enrolment starts again from a new QR code', async () => {
    const { user, browser } = await loggedIn(t);
    const seen = shownSecret((await browser.get('/accounts/2fa/')).body);
    const changed = await browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    expect(changed.statusCode).toBe(302);
    const refused = await enable(browser, seen, NEW_PASSWORD);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Start again from the QR code.');
    const fresh = shownSecret(refused.body);
    expect(fresh).not.toBe(seen);
    expect(await storedSecret(user.id)).toBeNull();
    expect((await enable(browser, fresh, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('is kept by the session, never by the account, until a code confirms it', async () => {
    const { user, browser } = await loggedIn(t);
    const secret = shownSecret((await browser.get('/accounts/2fa/')).body);
    expect(await storedSecret(user.id)).toBeNull();
    const row = await t.db.selectFrom('sessions').select('totp_pending_secret').where('session_key', '=', browser.cookies.get('sessionid')!).executeTakeFirstOrThrow();
    expect(row.totp_pending_secret).toBe(secret);
    expect((await enable(browser, secret)).statusCode).toBe(200);
    const after = await t.db.selectFrom('sessions').select('totp_pending_secret').where('user_id', '=', user.id).execute();
    expect(after.map((session) => session.totp_pending_secret)).toEqual([null]);
  });
});

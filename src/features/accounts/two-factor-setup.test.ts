import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atCodeStep, buildTestApp, connectChat, createGroup, DEFAULT_PASSWORD, enrolledUser, listen, loggedIn, shownRecoveryCodes, shownSecret, type TestApp, TestBrowser, totpCode } from '../../../test/index.js';
import { qrCodeImage, totpUri } from './two-factor-codes.js';

let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp();
  address = await listen(t.app);
});
afterAll(() => t.close());

const twoFactorColumns = (userId: number) =>
  t.db.selectFrom('users').select(['totp_secret', 'totp_enabled', 'totp_last_step']).where('id', '=', userId).executeTakeFirstOrThrow();
const sessionKeys = async (userId: number) => (await t.db.selectFrom('sessions').select('session_key').where('user_id', '=', userId).execute()).map((row) => row.session_key);
const recoveryRows = (userId: number) => t.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', userId).execute();

describe('turning two-factor sign-in on', () => {
  it('shows the secret in text and as a QR code drawn on the server, a new one at each opening', async () => {
    const { user, browser } = await loggedIn(t);
    const page = await browser.get('/accounts/2fa/');
    expect(page.statusCode).toBe(200);
    const secret = shownSecret(page.body);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // Kept by the session that is enrolling, not by the account.
    expect((await twoFactorColumns(user.id)).totp_secret).toBeNull();
    // The image is the QR code of the otpauth:// address of this very secret, as a data: URL.
    const image = /<img src="([^"]+)"/.exec(page.body)![1]!;
    expect(image).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(image).toBe(await qrCodeImage(totpUri(secret, user.username)));
    expect(totpUri(secret, user.username)).toBe(`otpauth://totp/groupnotes:${user.username}?issuer=groupnotes&secret=${secret}&algorithm=SHA1&digits=6&period=30`);
    expect(page.headers['content-security-policy']).toContain("img-src 'self' data:");
    expect(shownSecret((await browser.get('/accounts/2fa/')).body)).not.toBe(secret);
  });

  it('refuses a wrong code and leaves 2FA off', async () => {
    const { user, browser } = await loggedIn(t);
    const secret = shownSecret((await browser.get('/accounts/2fa/')).body);
    const response = await browser.post('/accounts/2fa/', { code: totpCode(secret, Date.now() - 10 * 60_000), password: DEFAULT_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('That code is not right');
    expect(shownSecret(response.body)).toBe(secret);
    expect((await twoFactorColumns(user.id)).totp_enabled).toBe(0);
    expect(await recoveryRows(user.id)).toHaveLength(0);
  });

  it('turns on with the right code and shows ten recovery codes once, stored only as SHA-256 hashes', async () => {
    const { user, browser } = await loggedIn(t);
    const secret = shownSecret((await browser.get('/accounts/2fa/')).body);
    const response = await browser.post('/accounts/2fa/', { code: totpCode(secret), password: DEFAULT_PASSWORD });
    expect(response.statusCode).toBe(200);
    const codes = shownRecoveryCodes(response.body);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await twoFactorColumns(user.id)).totp_enabled).toBe(1);

    const stored = (await recoveryRows(user.id)).map((row) => row.code_hash).sort();
    const sha256 = (code: string) => createHash('sha256').update(code.replace(/-/g, '')).digest('hex');
    expect(stored).toEqual(codes.map(sha256).sort());

    const later = await browser.get('/accounts/2fa/');
    expect(later.body).toContain('10 recovery codes are');
    for (const code of codes) expect(later.body).not.toContain(code);
    expect(later.body).not.toContain(secret);
  });

  it('ends the user’s other sessions and closes their chat sockets; the session that turned it on stays', async () => {
    const { user, browser } = await loggedIn(t);
    const group = await createGroup(t.db, user);
    const phone = new TestBrowser(t.app);
    await phone.login(user.username);
    const socket = await connectChat(address, `/ws/groups/${group.id}/chat/`, { sessionKey: phone.cookies.get('sessionid')! });
    const own = await connectChat(address, `/ws/groups/${group.id}/chat/`, { sessionKey: browser.cookies.get('sessionid')! });
    const secret = shownSecret((await browser.get('/accounts/2fa/')).body);
    const codes = await browser.post('/accounts/2fa/', { code: totpCode(secret), password: DEFAULT_PASSWORD });
    expect(codes.statusCode).toBe(200);
    expect(codes.body).toContain('You were logged out everywhere else');

    const closed = await Promise.race([socket.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000))]);
    expect(closed?.code).toBe(4403);
    expect((await phone.get('/notes/')).headers.location).toBe('/accounts/login/?next=%2Fnotes%2F');
    expect(await sessionKeys(user.id)).toEqual([browser.cookies.get('sessionid')]);
    expect((await browser.get('/notes/')).statusCode).toBe(200);
    const stillOpen = await Promise.race([own.closed.then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('open'), 300))]);
    expect(stillOpen).toBe('open');
    own.close();
  });

  it('accepts the code with a space in it', async () => {
    const { user, browser } = await loggedIn(t);
    const secret = shownSecret((await browser.get('/accounts/2fa/')).body);
    const code = totpCode(secret);
    const response = await browser.post('/accounts/2fa/', { code: `${code.slice(0, 3)} ${code.slice(3)}`, password: DEFAULT_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect((await twoFactorColumns(user.id)).totp_enabled).toBe(1);
  });

  it('is linked from the sessions page and the password page, and asks anonymous callers to log in', async () => {
    const { browser } = await loggedIn(t);
    expect((await browser.get('/accounts/sessions/')).body).toContain('href="/accounts/2fa/"');
    expect((await browser.get('/accounts/password_change/')).body).toContain('href="/accounts/2fa/"');
    const anonymous = await new TestBrowser(t.app).get('/accounts/2fa/');
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toBe('/accounts/login/?next=%2Faccounts%2F2fa%2F');
  });
});

describe('turning two-factor sign-in off', () => {
  it('needs the password: a right code with a wrong password leaves it on', async () => {
    const { user, browser, nextCode } = await enrolledUser(t);
    const response = await browser.post('/accounts/2fa/disable/', { password: 'not-the-password', code: nextCode() });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Your password was entered incorrectly');
    expect((await twoFactorColumns(user.id)).totp_enabled).toBe(1);
  });

  it('needs a code: the right password with a wrong or missing code leaves it on', async () => {
    const { user, browser, secret } = await enrolledUser(t);
    const wrong = await browser.post('/accounts/2fa/disable/', { password: DEFAULT_PASSWORD, code: totpCode(secret, Date.now() - 10 * 60_000) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('That code is not right');
    const missing = await browser.post('/accounts/2fa/disable/', { password: DEFAULT_PASSWORD });
    expect(missing.statusCode).toBe(400);
    expect((await twoFactorColumns(user.id)).totp_enabled).toBe(1);
  });

  it('turns off with the password and a code; the secret and recovery codes go, and login asks for no code', async () => {
    const { user, browser, nextCode } = await enrolledUser(t);
    const response = await browser.post('/accounts/2fa/disable/', { password: DEFAULT_PASSWORD, code: nextCode() });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/2fa/');
    expect(await twoFactorColumns(user.id)).toEqual({ totp_secret: null, totp_enabled: 0, totp_last_step: null });
    expect(await recoveryRows(user.id)).toHaveLength(0);

    const login = await new TestBrowser(t.app).post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD });
    expect(login.headers.location).toBe('/notes/');
  });

  it('takes a recovery code in place of the app code', async () => {
    const { user, browser, recoveryCodes } = await enrolledUser(t);
    const response = await browser.post('/accounts/2fa/disable/', { password: DEFAULT_PASSWORD, code: recoveryCodes[0] });
    expect(response.statusCode).toBe(302);
    expect((await twoFactorColumns(user.id)).totp_enabled).toBe(0);
  });

  it('leaves the user’s other sessions signed in (each passed the password, and the code while it was on)', async () => {
    const { user, browser, nextCode, recoveryCodes } = await enrolledUser(t);
    const phone = await atCodeStep(t, user.username);
    expect((await phone.post('/accounts/login/2fa/', { code: nextCode() })).statusCode).toBe(302);
    expect((await browser.post('/accounts/2fa/disable/', { password: DEFAULT_PASSWORD, code: recoveryCodes[0] })).statusCode).toBe(302);
    expect((await twoFactorColumns(user.id)).totp_enabled).toBe(0);
    expect((await phone.get('/notes/')).statusCode).toBe(200);
    expect((await browser.get('/notes/')).statusCode).toBe(200);
    expect(await sessionKeys(user.id)).toHaveLength(2);
  });

  it('turning it on again starts from a new secret', async () => {
    const { browser, secret, nextCode } = await enrolledUser(t);
    await browser.post('/accounts/2fa/disable/', { password: DEFAULT_PASSWORD, code: nextCode() });
    const again = shownSecret((await browser.get('/accounts/2fa/')).body);
    expect(again).not.toBe(secret);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, connectChat, createGroup, createUser, DEFAULT_PASSWORD, listen, loggedIn, outboxEmptied, QueryCounter, shownRecoveryCodes, type ReceivedMail, shownSecret, type TestApp, TestBrowser, TestSmtpServer, totpCode } from '../../../test/index.js';
import { verifyPassword } from '../../platform/passwords/passwords.js';
import { RESET_TIMEOUT_SECONDS, encodeUid, makeResetToken } from './reset-tokens.js';

const PUBLIC_URL = 'https://notes.example.test';
const NEW_PASSWORD = 'lighthouse-keeper-42';
let t: TestApp;
let smtp: TestSmtpServer;
let address: string;
let clientCounter = 0;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  t = await buildTestApp({ SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'groupnotes <noreply@notes.example.test>' });
  t.app.mailSender.start();
  address = await listen(t.app);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** A browser from an address of its own, so that the per-address limit of one test leaves the others alone. */
const anonymous = () => new TestBrowser(t.app, 'localhost', `10.0.0.${++clientCounter}`);

/** Asks for a reset and returns the link path of the mail that arrives. */
async function resetLinkFor(email: string): Promise<string> {
  const before = smtp.received.length;
  const response = await anonymous().post('/accounts/password_reset/', { email });
  expect(response.statusCode).toBe(302);
  // The first reset mail: the notice of an earlier reset may arrive in between.
  const isLink = (received: ReceivedMail) => received.subject === 'Reset your groupnotes password';
  await expect.poll(() => smtp.received.slice(before).some(isLink), { timeout: 10_000 }).toBe(true);
  const mail = smtp.received.slice(before).find(isLink)!;
  const link = new RegExp(`${PUBLIC_URL}(/accounts/reset/[^/\\s]+/[^/\\s]+/)`).exec(mail.text);
  expect(link).not.toBeNull();
  return link![1]!;
}

const storedPassword = async (id: number) => (await t.db.selectFrom('users').select('password').where('id', '=', id).executeTakeFirstOrThrow()).password;
const setNew = (browser: TestBrowser, path: string, password = NEW_PASSWORD) => browser.post(path, { new_password1: password, new_password2: password });

describe('password reset by mail', () => {
  it('mails a link, built on PUBLIC_URL, that sets a new password and ends every session of the user', async () => {
    const user = await createUser(t.db, { email: 'ann@example.test' });
    const phone = new TestBrowser(t.app);
    const laptop = new TestBrowser(t.app);
    await phone.login(user.username);
    await laptop.login(user.username);

    const before = smtp.received.length;
    const asked = await anonymous().post('/accounts/password_reset/', { email: 'Ann@Example.TEST' });
    expect(asked.statusCode).toBe(302);
    expect(asked.headers.location).toBe('/accounts/password_reset/done/');
    const mail = (await smtp.waitFor(before + 1)).slice(before).find((received) => received.subject === 'Reset your groupnotes password');
    expect(mail!.to).toEqual(['ann@example.test']);
    expect(mail!.subject).toBe('Reset your groupnotes password');
    expect(mail!.text).toContain(`Your username, in case you have forgotten it: ${user.username}`);
    const path = new RegExp(`${PUBLIC_URL}(/accounts/reset/[^/\\s]+/[^/\\s]+/)`).exec(mail!.text)![1]!;

    const visitor = anonymous();
    const form = await visitor.get(path);
    expect(form.statusCode).toBe(200);
    expect(form.headers['cache-control']).toBe('no-store');
    expect(form.body).toContain('name="new_password1"');
    const set = await setNew(visitor, path);
    expect(set.statusCode).toBe(302);
    expect(set.headers.location).toBe('/accounts/reset/done/');
    expect((await visitor.get('/accounts/reset/done/')).body).toContain('Your new password is set');

    expect((await verifyPassword(NEW_PASSWORD, await storedPassword(user.id), 1000)).ok).toBe(true);
    expect((await phone.get('/accounts/password_change/')).statusCode).toBe(302);
    expect((await laptop.get('/accounts/password_change/')).statusCode).toBe(302);
    expect(await t.db.selectFrom('sessions').select('session_key').where('user_id', '=', user.id).execute()).toEqual([]);
    await new TestBrowser(t.app).login(user.username, NEW_PASSWORD);
  });

  it('refuses a link used once already, and changes nothing', async () => {
    const user = await createUser(t.db, { email: 'twice@example.test' });
    const path = await resetLinkFor('twice@example.test');
    expect((await setNew(anonymous(), path)).statusCode).toBe(302);
    const stored = await storedPassword(user.id);
    const again = anonymous();
    const page = await again.get(path);
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('This link no longer works');
    const reused = await setNew(again, path, 'another-fine-passphrase-7');
    expect(reused.statusCode).toBe(400);
    expect(reused.body).toContain('This link no longer works');
    expect(await storedPassword(user.id)).toBe(stored);
  });

  it('refuses a link after the password was changed another way, or after a login', async () => {
    const changed = await createUser(t.db, { email: 'changed@example.test' });
    const oldLink = await resetLinkFor('changed@example.test');
    const browser = new TestBrowser(t.app);
    await browser.login(changed.username);
    const change = await browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    expect(change.statusCode).toBe(302);
    expect((await anonymous().get(oldLink)).statusCode).toBe(400);

    await createUser(t.db, { email: 'loggedin@example.test' }).then(async (user) => {
      const link = await resetLinkFor('loggedin@example.test');
      expect((await anonymous().get(link)).statusCode).toBe(200);
      await new TestBrowser(t.app).login(user.username);
      expect((await anonymous().get(link)).statusCode).toBe(400);
    });
  });

  it('keeps a link working for three days and refuses it after', async () => {
    const user = await createUser(t.db, { email: 'old@example.test' });
    const link = (ageSeconds: number) => `/accounts/reset/${encodeUid(user.id)}/${makeResetToken(t.config.secretKey, user, Date.now() - ageSeconds * 1000)}/`;
    expect((await anonymous().get(link(RESET_TIMEOUT_SECONDS - 60))).statusCode).toBe(200);
    expect((await anonymous().get(link(RESET_TIMEOUT_SECONDS + 1))).statusCode).toBe(400);
    const expired = await setNew(anonymous(), link(RESET_TIMEOUT_SECONDS + 1));
    expect(expired.statusCode).toBe(400);
    expect(await storedPassword(user.id)).toBe(user.password);
  });

  it('refuses a forged or malformed link with the same page', async () => {
    const user = await createUser(t.db, { email: 'forged@example.test' });
    const forged = makeResetToken('another-secret-key-0123456789abcdefghijklmnop', user);
    for (const path of [`/accounts/reset/${encodeUid(user.id)}/${forged}/`, `/accounts/reset/${encodeUid(999_999)}/${forged}/`, '/accounts/reset/!!/x-y/']) {
      const page = await anonymous().get(path);
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain('This link no longer works');
    }
  });

  it('checks the new password like a password change, and the link still works after a refusal', async () => {
    const user = await createUser(t.db, { email: 'weak@example.test' });
    const path = await resetLinkFor('weak@example.test');
    const browser = anonymous();
    const mismatch = await browser.post(path, { new_password1: NEW_PASSWORD, new_password2: 'something-else-99' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain('The two password fields didn’t match.');
    const weak = await setNew(browser, path, '12345678');
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('This password is entirely numeric.');
    expect(await storedPassword(user.id)).toBe(user.password);
    expect((await setNew(browser, path)).statusCode).toBe(302);
  });

  it('closes the chat sockets of every session of the user', async () => {
    const user = await createUser(t.db, { email: 'chatty@example.test' });
    const group = await createGroup(t.db, user);
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const browser = new TestBrowser(t.app);
      await browser.login(user.username);
      keys.push(browser.cookies.get('sessionid')!);
    }
    const sockets = await Promise.all(keys.map((sessionKey) => connectChat(address, `/ws/groups/${group.id}/chat/`, { sessionKey })));
    const path = await resetLinkFor('chatty@example.test');
    expect((await setNew(anonymous(), path)).statusCode).toBe(302);
    for (const socket of sockets) {
      const closed = await Promise.race([socket.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000))]);
      expect(closed?.code).toBe(4403);
    }
  });
});

describe('an address with no account', () => {
  it('gets the same answer and page as a known one, and no mail is queued or sent', async () => {
    await createUser(t.db, { email: 'known@example.test' });
    // Counted from before both requests: the known address's mail may arrive before the second.
    const sentBefore = smtp.received.length;
    const known = await anonymous().post('/accounts/password_reset/', { email: 'known@example.test' });
    const unknown = await anonymous().post('/accounts/password_reset/', { email: 'nobody@example.test' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.headers.location).toBe(known.headers.location);
    expect(unknown.body).toBe(known.body);
    // Among the mails to these two addresses (an earlier test's notice may arrive meanwhile), once the
    // outbox is empty: whatever the two requests queued has been sent by then.
    const toEither = (mail: ReceivedMail) => mail.to.some((to) => to === 'known@example.test' || to === 'nobody@example.test');
    await outboxEmptied(t.db);
    expect(smtp.received.slice(sentBefore).filter(toEither).map((mail) => mail.to)).toEqual([['known@example.test']]);
  });
});

describe('the same work for a known and an unknown address', () => {
  let counted: TestApp;
  const counter = new QueryCounter();
  beforeAll(async () => {
    // Its sender is not started, so that only the requests' own statements are counted.
    counted = await buildTestApp({}, counter.observe);
  });
  afterAll(() => counted.close());

  it('sends the database the same statements, one INSERT into the outbox included', async () => {
    await createUser(counted.db, { email: 'counted@example.test' });
    const ask = (email: string) => new TestBrowser(counted.app, 'localhost', `10.1.0.${++clientCounter}`).post('/accounts/password_reset/', { email });
    await ask('warm-up@example.test');
    const known = await counter.during(() => ask('counted@example.test'));
    const unknown = await counter.during(() => ask('uncounted@example.test'));
    expect(unknown).toBe(known);
    expect(await counted.db.selectFrom('mail_outbox').select('recipient').execute()).toEqual([{ recipient: 'counted@example.test' }]);
  });
});

describe('throttling', () => {
  it('answers 429 with Retry-After after 5 requests for one address in an hour, from any client', async () => {
    for (let i = 0; i < 5; i++) expect((await anonymous().post('/accounts/password_reset/', { email: 'flood@example.test' })).statusCode).toBe(302);
    const refused = await anonymous().post('/accounts/password_reset/', { email: 'FLOOD@example.test' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(refused.body).toContain('Too many reset requests. Try again in');
    expect(refused.body).toContain('<form method="post" action="/accounts/password_reset/"');
  });

  it('answers 429 after 20 requests from one client address, whatever the email', async () => {
    const client = anonymous();
    for (let i = 0; i < 20; i++) expect((await client.post('/accounts/password_reset/', { email: `spray${i}@example.test` })).statusCode).toBe(302);
    expect((await client.post('/accounts/password_reset/', { email: 'spray-last@example.test' })).statusCode).toBe(429);
    expect((await anonymous().post('/accounts/password_reset/', { email: 'spray-last@example.test' })).statusCode).toBe(302);
  });
});

describe('pages', () => {
  it('the login page links to the reset form, which says an account needs an email address', async () => {
    expect((await anonymous().get('/accounts/login/')).body).toContain('<a href="/accounts/password_reset/">Forgot your password?</a>');
    const form = await anonymous().get('/accounts/password_reset/');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('An account without an email address cannot be reset this way');
    const done = await anonymous().get('/accounts/password_reset/done/');
    expect(done.body).toContain('If an account has that email address');
  });

  it('registration and password change tell a person without an email address that reset needs one', async () => {
    expect((await anonymous().get('/register/')).body).toContain('without one, a forgotten password cannot be reset');
    const without = new TestBrowser(t.app);
    await without.login((await createUser(t.db)).username);
    expect((await without.get('/accounts/password_change/')).body).toContain('Your account has no email address');
    const withEmail = new TestBrowser(t.app);
    await withEmail.login((await createUser(t.db, { email: 'has@example.test' })).username);
    expect((await withEmail.get('/accounts/password_change/')).body).not.toContain('Your account has no email address');
  });

  it('the account page and the recovery codes tell a user without an email address that reset needs one, and where to add it', async () => {
    const without = await loggedIn(t);
    const account = (await without.browser.get('/accounts/')).body;
    expect(account).toContain('Your account has no email address');
    expect(account).toContain('a forgotten password cannot be reset by mail');
    const secret = shownSecret((await without.browser.get('/accounts/2fa/')).body);
    const codes = (await without.browser.post('/accounts/2fa/', { code: totpCode(secret), password: DEFAULT_PASSWORD })).body;
    expect(shownRecoveryCodes(codes)).toHaveLength(10);
    expect(codes).toContain('Your account has no email address');
    expect(codes).toContain('<a href="/accounts/">add one to your account</a>');

    const withEmail = await loggedIn(t, { email: 'kept@example.test' });
    expect((await withEmail.browser.get('/accounts/')).body).not.toContain('Your account has no email address');
    const withSecret = shownSecret((await withEmail.browser.get('/accounts/2fa/')).body);
    const withCodes = (await withEmail.browser.post('/accounts/2fa/', { code: totpCode(withSecret), password: DEFAULT_PASSWORD })).body;
    expect(shownRecoveryCodes(withCodes)).toHaveLength(10);
    expect(withCodes).not.toContain('Your account has no email address');
  });

  it('refuses an invalid email with the form', async () => {
    const response = await anonymous().post('/accounts/password_reset/', { email: 'not-an-address' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Enter a valid email address.');
  });
});

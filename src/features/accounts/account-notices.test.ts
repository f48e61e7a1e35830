import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp, createUser, DEFAULT_PASSWORD, enrolledUser, loggedIn, type ReceivedMail, shownRecoveryCodes, shownSecret, type TestApp, TestBrowser, TestSmtpServer, totpCode,
} from '../../../test/index.js';
import { SessionStore } from '../../platform/chain/session.js';
import { Outbox } from '../../platform/mail/outbox.js';
import { AccountNotices } from './notices.js';
import { encodeUid, makeResetToken } from './reset-tokens.js';
import { AccountsService } from './service.js';

// Whoever changes how one gets into an account, the owner hears of it at the account's address:
// for a new email address at the old one. The mails name the change and carry no secret.

const PUBLIC_URL = 'https://notes.example.test';
const NEW_PASSWORD = 'copper-kettle-81';
let t: TestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  t = await buildTestApp({ SMTP_URL: smtp.url, PUBLIC_URL });
  t.app.mailSender.start();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let addressCounter = 0;
const address = (name: string) => `${name}.${++addressCounter}.${Date.now() % 100000}@example.test`;
const mailsTo = (to: string) => smtp.received.filter((mail) => mail.to.includes(to));

/** The subject as written, its MIME encoded words (a subject in Ukrainian) decoded. */
function subjectOf(mail: ReceivedMail): string {
  const header = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(mail.raw)![1]!.replace(/\r\n[ \t]/g, ' ');
  return header.replace(/=\?UTF-8\?B\?([^?]*)\?=\s*/gi, (_match, base64: string) => Buffer.from(base64, 'base64').toString('utf8'));
}

/** The mails to `to` once there are `count`; then a moment more, to see that no other one follows. */
async function waitForMails(to: string, count: number): Promise<ReceivedMail[]> {
  const deadline = Date.now() + 10_000;
  while (mailsTo(to).length < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} mail(s) to ${to}, got ${mailsTo(to).length}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  return mailsTo(to);
}

describe('mail to the owner', () => {
  it('tells the old address of a new one, in a mail to the old address alone', async () => {
    const old = address('old');
    const changed = address('new');
    const { user, browser } = await loggedIn(t, { email: old });
    expect((await browser.post('/accounts/', { email: changed, timezone: 'UTC', password: DEFAULT_PASSWORD })).statusCode).toBe(302);
    const [mail] = await waitForMails(old, 1);
    expect(mail!.subject).toBe('The email address of your groupnotes account was changed');
    expect(mail!.text).toContain(`Hello ${user.username},`);
    expect(mail!.text).toContain(`was changed to ${changed}`);
    expect(mail!.text).toContain(`${PUBLIC_URL}/accounts/`);
    expect(mailsTo(changed)).toEqual([]);
  });

  it('tells of a password change and of a reset by link, without the password', async () => {
    const email = address('pw');
    const { user, browser } = await loggedIn(t, { email });
    await browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    const [changed] = await waitForMails(email, 1);
    expect(changed!.subject).toBe('Your groupnotes password was changed');
    expect(changed!.text).not.toContain(NEW_PASSWORD);

    const stored = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    const link = `/accounts/reset/${encodeUid(user.id)}/${makeResetToken(t.config.secretKey, stored)}/`;
    const reset = await new TestBrowser(t.app).post(link, { new_password1: 'amber-orchard-27', new_password2: 'amber-orchard-27' });
    expect(reset.statusCode).toBe(302);
    const mails = await waitForMails(email, 2);
    expect(mails[1]!.subject).toBe('Your groupnotes password was reset');
    expect(mails[1]!.text).not.toContain('amber-orchard-27');
  });

  it('tells of two-factor sign-in turned on and off, without the secret or the codes', async () => {
    const email = address('tfa');
    const user = await createUser(t.db, { email });
    const { browser, secret, recoveryCodes, nextCode } = await enrolledUserFor(user.username);
    const [on] = await waitForMails(email, 1);
    expect(on!.subject).toBe('Two-factor sign-in was turned on for your groupnotes account');
    expect(on!.text).not.toContain(secret);
    for (const code of recoveryCodes) expect(on!.text).not.toContain(code);
    expect((await browser.post('/accounts/2fa/disable/', { password: DEFAULT_PASSWORD, code: nextCode() })).statusCode).toBe(302);
    const mails = await waitForMails(email, 2);
    expect(mails[1]!.subject).toBe('Two-factor sign-in was turned off for your groupnotes account');
  });

  it('tells of a new access token by its name and scope, never the token', async () => {
    const email = address('token');
    const { browser } = await loggedIn(t, { email });
    const made = await browser.post('/accounts/tokens/new/', { name: 'nightly backup', scope: 'write', password: DEFAULT_PASSWORD });
    const token = /<code class="token-value">(gnp_[A-Za-z0-9]+)<\/code>/.exec(made.body)![1]!;
    const [mail] = await waitForMails(email, 1);
    expect(mail!.subject).toBe('A new access token was created for your groupnotes account');
    expect(mail!.text).toContain('“nightly backup” (read and write)');
    expect(mail!.raw).not.toContain(token);
    expect(mail!.raw).not.toContain(token.slice(4, 12));
  });

  it('tells of an administrator’s new password and of their turning two-factor sign-in off', async () => {
    const email = address('helped');
    const { user } = await enrolledUser(t);
    await t.db.updateTable('users').set({ email, language: 'uk' }).where('id', '=', user.id).execute();
    const admin = await loggedIn(t);
    await t.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.user.id).execute();
    expect((await admin.browser.post(`/admin/users/${user.id}/disable-2fa/`)).statusCode).toBe(302);
    const [off] = await waitForMails(email, 1);
    // In the user's own language, not the administrator's.
    expect(subjectOf(off!)).toBe('Адміністратор вимкнув двофакторний вхід для вашого облікового запису groupnotes');

    // The command line's changepassword goes through the same service.
    const accounts = new AccountsService(t.db, t.config, new SessionStore(t.db, t.config.sessionCookieAge), new AccountNotices(new Outbox(t.db, t.database.dialect), PUBLIC_URL));
    const stored = await accounts.users.findById(user.id);
    expect((await accounts.setNewPassword(stored!, NEW_PASSWORD)).ok).toBe(true);
    t.app.mailSender.wake();
    const mails = await waitForMails(email, 2);
    expect(subjectOf(mails[1]!)).toBe('Адміністратор встановив новий пароль для вашого облікового запису groupnotes');
  });

  it('sends nothing, and fails nothing, for an account without an address', async () => {
    const before = smtp.received.length;
    const { user, browser } = await loggedIn(t);
    expect((await browser.post('/accounts/tokens/new/', { name: 'quiet', scope: 'read', password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    expect((await browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD })).statusCode).toBe(302);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.slice(before).filter((mail) => mail.text.includes(user.username))).toEqual([]);
    expect(await t.db.selectFrom('mail_outbox').select('id').where('recipient', '=', '').execute()).toEqual([]);
  });
});

/** Turns 2FA on through the pages for a user made with an address (enrolledUser makes one without). */
async function enrolledUserFor(username: string) {
  const browser = new TestBrowser(t.app);
  await browser.login(username);
  const secret = shownSecret((await browser.get('/accounts/2fa/')).body);
  const confirmed = await browser.post('/accounts/2fa/', { code: totpCode(secret), password: DEFAULT_PASSWORD });
  expect(confirmed.statusCode).toBe(200);
  return { browser, secret, recoveryCodes: shownRecoveryCodes(confirmed.body), nextCode: () => totpCode(secret, Date.now() + 30_000) };
}

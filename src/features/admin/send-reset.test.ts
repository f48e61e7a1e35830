import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, loggedIn, type TestApp, TestBrowser, TestSmtpServer, outboxEmptied } from '../../../test/index.js';
import type { User } from '../../db/schema.js';
import { verifyPassword } from '../../platform/passwords/passwords.js';

// An administrator sends a locked-out user the password-reset mail they would get by asking at
// /accounts/password_reset/: through a real SMTP server, with a link that works, and one audit entry.

const PUBLIC_URL = 'https://notes.example.test';
const NEW_PASSWORD = 'harbour-pilot-lantern-9';
let t: TestApp;
let smtp: TestSmtpServer;
let admin: { user: User; browser: TestBrowser };

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  t = await buildTestApp({ SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'groupnotes <noreply@notes.example.test>' });
  t.app.mailSender.start();
  admin = await loggedIn(t);
  await t.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.user.id).execute();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** A page without its CSRF tokens, which are masked afresh on every page. */
const unmasked = (body: string) => body.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, '');
const auditFor = (targetId: number) => t.db.selectFrom('audit_log').selectAll().where('target_id', '=', targetId).orderBy('id').execute();
const queuedFor = (email: string) => t.db.selectFrom('mail_outbox').select('id').where('recipient', '=', email).execute();
const storedPassword = async (id: number) => (await t.db.selectFrom('users').select('password').where('id', '=', id).executeTakeFirstOrThrow()).password;

describe('an administrator sending a password-reset mail', () => {
  it('queues the reset mail, whose link sets a new password; one audit entry and a message', async () => {
    const user = await createUser(t.db, { email: 'locked-out@example.test' });
    expect((await admin.browser.get('/admin/users/')).body).toContain(`action="/admin/users/${user.id}/send-reset/"`);
    const before = smtp.received.length;
    const response = await admin.browser.post(`/admin/users/${user.id}/send-reset/`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/admin/users/');
    expect((await admin.browser.get('/admin/users/')).body).toContain(`A password-reset mail to locked-out@example.test is on its way to ${user.username}.`);

    const mail = (await smtp.waitFor(before + 1))[before]!;
    expect(mail.to).toEqual(['locked-out@example.test']);
    expect(mail.subject).toBe('Reset your groupnotes password');
    expect(mail.text).toContain(`Your username, in case you have forgotten it: ${user.username}`);
    const path = new RegExp(`${PUBLIC_URL}(/accounts/reset/[^/\\s]+/[^/\\s]+/)`).exec(mail.text)![1]!;

    const visitor = new TestBrowser(t.app, 'localhost', '10.9.0.1');
    expect((await visitor.get(path)).statusCode).toBe(200);
    const set = await visitor.post(path, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    expect(set.headers.location).toBe('/accounts/reset/done/');
    expect((await verifyPassword(NEW_PASSWORD, await storedPassword(user.id), 1000)).ok).toBe(true);
    await new TestBrowser(t.app).login(user.username, NEW_PASSWORD);

    const entries = await auditFor(user.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: admin.user.id, actor_name: admin.user.username, action: 'send-reset', target_name: user.username, address: '127.0.0.1' });
    expect((await admin.browser.get('/admin/audit/')).body).toContain('sent a password-reset mail to');
  });

  it('sends nothing to a user without an email address, says plainly why, and logs nothing; the list shows who has none', async () => {
    const user = await createUser(t.db, { email: '' });
    const list = await admin.browser.get('/admin/users/');
    expect(list.body).not.toContain(`action="/admin/users/${user.id}/send-reset/"`);
    expect(list.body).toContain('Password reset needs an email address.');
    // The mails of the tests before (a notice of the new password among them) are out first.
    await outboxEmptied(t.db);
    const queued = (await t.db.selectFrom('mail_outbox').select('id').execute()).length;
    const sent = smtp.received.length;
    const response = await admin.browser.post(`/admin/users/${user.id}/send-reset/`);
    expect(response.statusCode).toBe(302);
    expect((await admin.browser.get('/admin/users/')).body).toContain(`${user.username} has no email address, and password reset needs one: nothing was sent.`);
    expect((await t.db.selectFrom('mail_outbox').select('id').execute()).length).toBe(queued);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received.length).toBe(sent);
    expect(await auditFor(user.id)).toEqual([]);
  });

  it('sends nothing to a deactivated user (their link would not work) and logs nothing', async () => {
    const user = await createUser(t.db, { email: 'gone@example.test' });
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', user.id).execute();
    expect((await admin.browser.get('/admin/users/')).body).not.toContain(`action="/admin/users/${user.id}/send-reset/"`);
    expect((await admin.browser.post(`/admin/users/${user.id}/send-reset/`)).statusCode).toBe(302);
    expect((await admin.browser.get('/admin/users/')).body).toContain(`${user.username} is deactivated, so a reset link would not work for them. Reactivate them first: nothing was sent.`);
    expect(await queuedFor('gone@example.test')).toEqual([]);
    expect(await auditFor(user.id)).toEqual([]);
  });

  it('gets a 404 for a user that does not exist, or an id that is not one', async () => {
    expect((await admin.browser.post('/admin/users/999999999/send-reset/')).statusCode).toBe(404);
    expect((await admin.browser.post('/admin/users/abc/send-reset/')).statusCode).toBe(404);
    expect((await admin.browser.post('/admin/users/99999999999999999999999/send-reset/')).statusCode).toBe(404);
  });
});

describe('anyone else', () => {
  it('gets the 404 of a missing page on GET and POST, and nothing is queued, sent or logged', async () => {
    const target = await createUser(t.db, { email: 'target@example.test' });
    const { browser } = await loggedIn(t, { email: 'member@example.test' });
    const path = `/admin/users/${target.id}/send-reset/`;
    const missing = await browser.get('/admin/users/999999999/no-such-page/');
    const get = await browser.get(path);
    expect(get.statusCode).toBe(404);
    expect(unmasked(get.body)).toBe(unmasked(missing.body));
    const post = await browser.post(path);
    expect(post.statusCode).toBe(404);
    expect(unmasked(post.body)).toBe(unmasked(missing.body));
    expect((await admin.browser.get(path)).statusCode).toBe(405);
    const anonymous = await new TestBrowser(t.app).post(path);
    expect(anonymous.headers.location).toMatch(/^\/accounts\/login\//);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await queuedFor('target@example.test')).toEqual([]);
    expect(smtp.received.filter((mail) => mail.to.includes('target@example.test'))).toEqual([]);
    expect(await auditFor(target.id)).toEqual([]);
  });
});

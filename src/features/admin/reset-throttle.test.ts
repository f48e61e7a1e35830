import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, loggedIn, type TestApp, type TestBrowser, TestSmtpServer } from '../../../test/index.js';
import type { User } from '../../db/schema.js';

// An administrator's "send reset mail" is limited per user it goes to, whichever administrator
// asks: a few an hour reach one inbox, and the rest are refused with a plain message.

const PUBLIC_URL = 'https://notes.example.test';
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

/** Mails still in the outbox (a sent one leaves it). */
const pendingFor = async (email: string) => (await t.db.selectFrom('mail_outbox').select('id').where('recipient', '=', email).execute()).length;
const auditedSends = async (targetId: number) => (await t.db.selectFrom('audit_log').select('id').where('target_id', '=', targetId).where('action', '=', 'send-reset').execute()).length;
const receivedBy = (email: string) => smtp.received.filter((mail) => mail.to.includes(email)).length;

describe('an administrator sending reset mails to one user', () => {
  it('sends three in an hour; the fourth is refused with 429, Retry-After and the users page with a message; nothing more is queued, sent or logged', async () => {
    const user = await createUser(t.db, { email: 'flooded@example.test' });
    const before = smtp.received.length;
    for (let i = 0; i < 3; i += 1) {
      const sent = await admin.browser.post(`/admin/users/${user.id}/send-reset/`);
      expect(sent.statusCode, `mail ${i + 1}`).toBe(302);
    }
    await smtp.waitFor(before + 3);
    const refused = await admin.browser.post(`/admin/users/${user.id}/send-reset/`);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(refused.body).toContain('<h1>Users</h1>');
    expect(refused.body).toContain(`${user.username} has been sent 3 reset mails in the last hour: nothing more was sent. Try again in 60 minutes.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await pendingFor('flooded@example.test')).toBe(0);
    expect(receivedBy('flooded@example.test')).toBe(3);
    expect(await auditedSends(user.id)).toBe(3);
  });

  it('counts the mails of every administrator together, and leaves other users’ mails alone', async () => {
    const user = await createUser(t.db, { email: 'target@example.test' });
    const other = await createUser(t.db, { email: 'other@example.test' });
    const second = await loggedIn(t);
    await t.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', second.user.id).execute();
    const before = smtp.received.length;
    for (let i = 0; i < 3; i += 1) expect((await admin.browser.post(`/admin/users/${user.id}/send-reset/`)).statusCode).toBe(302);
    expect((await second.browser.post(`/admin/users/${user.id}/send-reset/`)).statusCode).toBe(429);
    expect((await second.browser.post(`/admin/users/${other.id}/send-reset/`)).statusCode).toBe(302);
    await smtp.waitFor(before + 4);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receivedBy('target@example.test')).toBe(3);
    expect(receivedBy('other@example.test')).toBe(1);
    expect(await pendingFor('target@example.test')).toBe(0);
  });

  it('does not count a request that sent nothing (no address), nor a user that does not exist', async () => {
    const user = await createUser(t.db, { email: '' });
    for (let i = 0; i < 4; i += 1) {
      expect((await admin.browser.post(`/admin/users/${user.id}/send-reset/`)).statusCode).toBe(302);
      expect((await admin.browser.get('/admin/users/')).body).toContain(`${user.username} has no email address`);
    }
    for (let i = 0; i < 4; i += 1) expect((await admin.browser.post('/admin/users/999999999/send-reset/')).statusCode).toBe(404);
  });
});

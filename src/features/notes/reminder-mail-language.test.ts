import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createNote, createUser, type TestApp, TestSmtpServer } from '../../../test/index.js';
import { Hub } from '../../platform/hub/hub.js';
import { MemoryTransport } from '../../platform/hub/transport.js';
import { Outbox } from '../../platform/mail/outbox.js';
import { Notifications } from '../notifications/notifications.js';
import { ReminderScheduler } from './reminder-scheduler.js';

// A reminder's mail is written by a background job: it speaks the recipient's users.language
// ('' = English), its date in that language and in the recipient's time zone.

const PUBLIC_URL = 'https://notes.example.test';
let smtp: TestSmtpServer;
let t: TestApp;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  t = await buildTestApp({ SMTP_URL: smtp.url, PUBLIC_URL, REMINDER_POLL_MS: '60000' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** The Subject header of a raw mail, unfolded, its RFC 2047 encoded words (base64 or Q) decoded. */
function subjectOf(raw: string): string {
  const headers = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/m.exec(headers)?.[1] ?? '';
  return subject.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_match, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_hex, byte: string) => String.fromCharCode(parseInt(byte, 16))), 'latin1').toString('utf8'));
}

/** The text of a mail: test/smtp.ts undoes quoted-printable; a body in base64 (nodemailer's choice for Cyrillic) is decoded here. */
function textOf(mail: { raw: string; text: string }): string {
  const headers = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'));
  return /^Content-Transfer-Encoding: base64/im.test(headers) ? Buffer.from(mail.text.replace(/\s+/g, ''), 'base64').toString('utf8') : mail.text;
}

async function deliverReminderOf(user: User, title: string, dueAt: number): Promise<void> {
  const note = await createNote(t.db, user, { title });
  await t.db.insertInto('reminders').values({ note_id: note.id, owner_id: user.id, local_time: '2026-11-22T09:00', time_zone: 'UTC', repeat: 'none', message: 'Купити цибулю', next_due_at: dueAt, created_at: 0 }).execute();
  const scheduler = new ReminderScheduler({ db: t.db, dialect: t.database.dialect, notifications: new Notifications(new Hub(new MemoryTransport(), t.app.log)), outbox: new Outbox(t.db, t.database.dialect), publicUrl: PUBLIC_URL, log: t.app.log });
  expect(await scheduler.deliverDue(dueAt)).toBe(1);
  expect(await t.app.mailSender.sendDue()).toBe(1);
}

describe('the reminder mail', () => {
  const dueAt = Date.UTC(2026, 10, 22, 7, 30);

  it('is Ukrainian for a user whose language is uk, the date in Ukrainian and in their zone', async () => {
    const olena = await createUser(t.db, { email: 'olena@example.test' });
    await t.db.updateTable('users').set({ language: 'uk', timezone: 'Europe/Kyiv' }).where('id', '=', olena.id).execute();
    await deliverReminderOf(olena, 'Стоматолог', dueAt);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toEqual(['olena@example.test']);
    expect(subjectOf(mail!.raw)).toBe('Нагадування: Стоматолог');
    const text = textOf(mail!);
    expect(text).toContain('Ваше нагадування на 22 лист. 2026 р., 09:30 (Europe/Kyiv) до нотатки «Стоматолог».');
    expect(text).toContain('Купити цибулю');
    expect(text).toContain(`Відкрити нотатку: ${PUBLIC_URL}/notes/`);
    expect(text).not.toContain('Reminder');
    const [notification] = await t.db.selectFrom('notifications').select('text').where('user_id', '=', olena.id).execute();
    expect(notification?.text).toBe('Нагадування: Стоматолог — Купити цибулю');
  });

  it('is English for a user with no language set', async () => {
    const ann = await createUser(t.db, { email: 'ann@example.test' });
    await deliverReminderOf(ann, 'Dentist', dueAt);
    const [, mail] = await smtp.waitFor(2);
    expect(mail!.subject).toBe('Reminder: Dentist');
    expect(mail!.text).toContain('Your reminder for 22 Nov 2026, 07:30 (UTC) on the note “Dentist”.');
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/database.js';
import type { User } from '../../db/schema.js';
import { buildTestApp, createNote, loggedIn, type TestApp, type TestBrowser, TestSmtpServer } from '../../../test/index.js';
import { Hub } from '../../platform/hub/hub.js';
import { MemoryTransport } from '../../platform/hub/transport.js';
import { Outbox } from '../../platform/mail/outbox.js';
import { Notifications } from '../notifications/notifications.js';
import { formatWallTime, wallTimeAt } from '../../platform/wall-clock.js';
import { ReminderScheduler } from './reminder-scheduler.js';

// The scheduler delivers each due reminder exactly once: a notification and (with an address)
// a mail, in the transaction that deletes the reminder or moves it to its next occurrence.

const PUBLIC_URL = 'https://notes.example.test';
let smtp: TestSmtpServer;
let t: TestApp;
let owner: { user: User; browser: TestBrowser };
const extraHandles: DatabaseHandle[] = [];
const schedulers: ReminderScheduler[] = [];

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  // A long poll: reminders added here must fire by their own timer, not by the poll.
  t = await buildTestApp({ SMTP_URL: smtp.url, PUBLIC_URL, REMINDER_POLL_MS: '60000' });
  owner = await loggedIn(t, { email: 'owner@example.test' });
});
afterEach(async () => {
  for (const scheduler of schedulers.splice(0)) await scheduler.stop();
  for (const handle of extraHandles.splice(0)) await handle.close();
  await t.db.deleteFrom('reminders').execute();
  await t.db.deleteFrom('notifications').execute();
  await t.db.deleteFrom('mail_outbox').execute();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const notificationsOf = (userId: number) => t.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('id').execute();
const reminders = () => t.db.selectFrom('reminders').selectAll().orderBy('id').execute();

/** A scheduler of a second "instance": its own connection pool on the same database. */
function instance(pollMs = 60_000, hub = new Hub(new MemoryTransport(), t.app.log)): ReminderScheduler {
  const handle = openDatabase(t.config.databaseUrl, { poolSize: 4 });
  extraHandles.push(handle);
  const scheduler = new ReminderScheduler(
    { db: handle.db, dialect: handle.dialect, notifications: new Notifications(hub), outbox: new Outbox(handle.db, handle.dialect), publicUrl: PUBLIC_URL, log: t.app.log },
    { pollMs, stopWaitMs: 5_000 },
  );
  schedulers.push(scheduler);
  return scheduler;
}

async function insertReminder(noteId: number, user: User, values: { local_time: string; time_zone?: string; repeat?: 'none' | 'daily' | 'weekly' | 'monthly'; next_due_at: number; message?: string }) {
  return t.db
    .insertInto('reminders')
    .values({ note_id: noteId, owner_id: user.id, time_zone: 'UTC', repeat: 'none', message: '', created_at: 0, ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
}

describe('the reminder scheduler', () => {
  it('fires a reminder within a second of its time, once: a notification and a mail through SMTP', async () => {
    const note = await createNote(t.db, owner.user, { title: 'Dentist' });
    t.app.background.start();
    // Seconds from now, entered with seconds as a datetime-local input with step=1 sends them.
    const dueAt = Math.ceil((Date.now() + 2_000) / 1000) * 1000;
    const added = await owner.browser.post(`/notes/${note.id}/reminders/add/`, { remind_at: formatWallTime(wallTimeAt('UTC', dueAt)), message: 'Bring the X-ray', repeat: 'none' });
    expect(added.statusCode).toBe(302);

    await expect.poll(() => notificationsOf(owner.user.id), { timeout: 5_000, interval: 20 }).toHaveLength(1);
    const firedAfter = Date.now() - dueAt;
    expect(firedAfter).toBeGreaterThanOrEqual(0);
    expect(firedAfter).toBeLessThan(1_000);
    const [notification] = await notificationsOf(owner.user.id);
    expect(notification).toMatchObject({ kind: 'reminder', text: 'Reminder: Dentist — Bring the X-ray', link: `/notes/${note.id}/`, read_at: null });
    expect(await reminders()).toEqual([]);

    // The app's own sender hands the queued mail to the SMTP server (its loop is not started, so
    // that later tests can count what stays queued).
    expect(await t.app.mailSender.sendDue()).toBe(1);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toEqual(['owner@example.test']);
    expect(mail!.subject).toBe('Reminder: Dentist');
    expect(mail!.text).toContain('Bring the X-ray');
    expect(mail!.text).toContain(`${PUBLIC_URL}/notes/${note.id}/`);

    // Never again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await notificationsOf(owner.user.id)).toHaveLength(1);
    expect(smtp.received).toHaveLength(1);
  });

  it('delivers a reminder that fell due while no instance ran as soon as one starts', async () => {
    const noMail = await loggedIn(t);
    const note = await createNote(t.db, noMail.user, { title: 'Missed' });
    await insertReminder(note.id, noMail.user, { local_time: '2020-01-01T09:00', next_due_at: Date.parse('2020-01-01T09:00:00Z') });
    const hub = new Hub(new MemoryTransport(), t.app.log);
    const announced: number[][] = [];
    hub.subscribe((event) => {
      if (event.type === 'notifications.changed') announced.push(event.userIds);
    });
    instance(60_000, hub).start();
    await expect.poll(() => notificationsOf(noMail.user.id), { timeout: 5_000, interval: 20 }).toHaveLength(1);
    // Told to the owner's open pages, after the commit.
    await expect.poll(() => announced).toContainEqual([noMail.user.id]);
    expect(await reminders()).toEqual([]);
    // No address, no mail.
    expect(await t.db.selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
  });

  it('moves a repeating reminder to its next occurrence from its schedule, skipping the periods missed, after one delivery', async () => {
    const note = await createNote(t.db, owner.user);
    const { id } = await insertReminder(note.id, owner.user, { local_time: '2024-05-06T08:15', repeat: 'daily', next_due_at: Date.parse('2024-05-06T08:15:00Z') });
    const now = Date.now();
    expect(await instance().deliverDue(now)).toBe(1);
    const [moved] = await reminders();
    expect(moved!.id).toBe(id);
    const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T08:15:00Z`);
    expect(moved!.next_due_at).toBe(today > now ? today : today + 24 * 60 * 60 * 1000);
    expect(await notificationsOf(owner.user.id)).toHaveLength(1);
    expect(await instance().deliverDue(now)).toBe(0);
  });

  it('keeps a daily 09:00 in Kyiv at 09:00 local across the change to summer time', async () => {
    const note = await createNote(t.db, owner.user);
    await insertReminder(note.id, owner.user, { local_time: '2026-03-27T09:00', time_zone: 'Europe/Kyiv', repeat: 'daily', next_due_at: Date.parse('2026-03-28T07:00:00Z') });
    const scheduler = instance();
    const dues = [];
    for (let day = 0; day < 3; day += 1) {
      const [due] = await reminders();
      await scheduler.deliverDue(due!.next_due_at);
      dues.push((await reminders())[0]!.next_due_at);
    }
    expect(dues.map((ms) => new Date(ms).toISOString())).toEqual(['2026-03-29T06:00:00.000Z', '2026-03-30T06:00:00.000Z', '2026-03-31T06:00:00.000Z']);
  });

  it('clamps a monthly reminder on the 31st to the end of shorter months and returns to the 31st', async () => {
    const note = await createNote(t.db, owner.user);
    await insertReminder(note.id, owner.user, { local_time: '2027-01-31T10:00', repeat: 'monthly', next_due_at: Date.parse('2027-01-31T10:00:00Z') });
    const scheduler = instance();
    const dues = [];
    for (let month = 0; month < 3; month += 1) {
      await scheduler.deliverDue((await reminders())[0]!.next_due_at);
      dues.push(new Date((await reminders())[0]!.next_due_at).toISOString());
    }
    expect(dues).toEqual(['2027-02-28T10:00:00.000Z', '2027-03-31T10:00:00.000Z', '2027-04-30T10:00:00.000Z']);
  });

  it('delivers each of many due reminders exactly once while two instances race for them', async () => {
    const users = [owner.user, (await loggedIn(t)).user];
    const notes = await Promise.all(users.map((user) => createNote(t.db, user)));
    const count = 300;
    await t.db
      .insertInto('reminders')
      .values(Array.from({ length: count }, (_, n) => ({
        note_id: notes[n % 2]!.id, owner_id: users[n % 2]!.id, local_time: '2020-01-01T09:00', time_zone: 'UTC', repeat: 'none' as const,
        message: `number ${n}`, next_due_at: Date.parse('2020-01-01T09:00:00Z') + n, created_at: 0,
      })))
      .execute();
    const racers = [instance(20), instance(20)];
    for (const racer of racers) racer.start();
    await expect.poll(async () => (await reminders()).length, { timeout: 20_000, interval: 50 }).toBe(0);
    const delivered = await t.db.selectFrom('notifications').select('text').where('kind', '=', 'reminder').execute();
    expect(delivered).toHaveLength(count);
    expect(new Set(delivered.map((row) => row.text)).size).toBe(count);
    const mails = await t.db.selectFrom('mail_outbox').select('body').execute();
    expect(mails).toHaveLength(count / 2);
  });
});

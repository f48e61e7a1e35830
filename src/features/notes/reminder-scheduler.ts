import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { BackgroundJob } from '../../platform/background.js';
import { BatchScheduler, type SchedulerOptions } from '../../platform/scheduler.js';
import type { Mail, MailLog } from '../../platform/mail/mailer.js';
import type { Outbox } from '../../platform/mail/outbox.js';
import type { Notifier } from '../../services.js';
import { chooseLanguage, translator, type Translator } from '../../platform/i18n/index.js';
import { dateTimeIn, isTimeZone, timeZoneOr } from '../../platform/time-zones.js';
import { nextOccurrence, parseWallTime } from '../../platform/wall-clock.js';

interface Deps {
  db: Kysely<Database>;
  dialect: Dialect;
  notifications: Notifier;
  outbox: Outbox;
  /** The origin of links in mails. */
  publicUrl: string;
  log: MailLog;
}

interface DueReminder {
  id: number;
  note_id: number;
  owner_id: number;
  local_time: string;
  time_zone: string;
  repeat: 'none' | 'daily' | 'weekly' | 'monthly';
  message: string;
  next_due_at: number;
  title: string;
  email: string;
  /** The owner's language ('' = English) and time zone: the mail and notification speak them. */
  language: string;
  timezone: string;
}

/**
 * Delivers due reminders. The reminders table is the job table: a round claims due rows in a
 * transaction (PostgreSQL: FOR UPDATE SKIP LOCKED, so instances take different rows and never
 * wait for each other; SQLite: one writer at a time) and, in that same transaction, writes the
 * owner's notification and mail and deletes the reminder or moves it to its next occurrence.
 * A reminder is thus delivered exactly once whoever runs, and a crash before the commit leaves
 * it due. Every instance runs one; it never throws.
 */
export class ReminderScheduler implements BackgroundJob {
  private readonly loop: BatchScheduler;

  constructor(
    private readonly deps: Deps,
    options: Partial<SchedulerOptions> = {},
  ) {
    this.loop = new BatchScheduler({ runBatch: (now) => this.deliverDue(now), earliestDue: () => this.earliestDue(), failure: 'reminder round failed' }, deps.log, options);
  }

  /** Delivers what fell due while no instance ran, then keeps watching. */
  start(): void {
    this.loop.start();
  }

  /** A reminder due at `at` was added here: wake up then rather than at the next poll. */
  added(at: number): void {
    this.loop.added(at);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One transaction: claims and delivers up to a batch of due reminders; returns how many. */
  async deliverDue(now = Date.now()): Promise<number> {
    const { db, dialect, notifications, outbox } = this.deps;
    const delivered = await db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('reminders')
        .innerJoin('notes', 'notes.id', 'reminders.note_id')
        .innerJoin('users', 'users.id', 'reminders.owner_id')
        .select(['reminders.id', 'reminders.note_id', 'reminders.owner_id', 'reminders.local_time', 'reminders.time_zone', 'reminders.repeat'])
        .select(['reminders.message', 'reminders.next_due_at', 'notes.title', 'users.email', 'users.language', 'users.timezone'])
        .where('reminders.next_due_at', '<=', now)
        .orderBy('reminders.next_due_at')
        .orderBy('reminders.id')
        .limit(this.loop.options.batchSize);
      // The note's row too: a note being deleted is skipped (it takes its reminders with it),
      // and the view_version trigger then never waits for a lock another transaction holds.
      if (dialect === 'postgres') due = due.forUpdate(['reminders', 'notes']).skipLocked();
      const rows: DueReminder[] = await due.execute();
      const mails: Mail[] = [];
      const finished: number[] = [];
      for (const row of rows) {
        const t = translator(chooseLanguage(undefined, row.language));
        await notifications.add(trx, [row.owner_id], { kind: 'reminder', text: notificationText(t, row), link: `/notes/${row.note_id}/` }, now);
        if (row.email) mails.push(this.mail(t, row));
        const next = this.next(row, now);
        if (next === null) finished.push(row.id);
        else await trx.updateTable('reminders').set({ next_due_at: next }).where('id', '=', row.id).execute();
      }
      await outbox.enqueueIn(trx, mails, now);
      if (finished.length > 0) await trx.deleteFrom('reminders').where('id', 'in', finished).execute();
      return { owners: rows.map((row) => row.owner_id), mailed: mails.length > 0 };
    });
    notifications.announce(delivered.owners);
    if (delivered.mailed) outbox.wake();
    return delivered.owners.length;
  }

  /** The earliest reminder still to deliver, epoch ms (Infinity: none). */
  async earliestDue(): Promise<number> {
    const row = await this.deps.db.selectFrom('reminders').select('next_due_at').orderBy('next_due_at').limit(1).executeTakeFirst();
    return row ? row.next_due_at : Infinity;
  }

  /** The next occurrence after now, from the schedule as entered; null when it does not repeat. */
  private next(row: DueReminder, now: number): number | null {
    const start = parseWallTime(row.local_time);
    if (row.repeat === 'none') return null;
    if (!start || !isTimeZone(row.time_zone)) {
      // Cannot happen through the form; delivered once rather than retried for ever.
      this.deps.log.error({ reminderId: row.id, localTime: row.local_time, timeZone: row.time_zone }, 'reminder schedule unreadable; not repeated');
      return null;
    }
    return nextOccurrence(start, row.time_zone, row.repeat, Math.max(now, row.next_due_at));
  }

  /** The mail in the owner's language, its time in the owner's zone (the reminder's own if theirs is unknown). */
  private mail(t: Translator, row: DueReminder): Mail {
    const zone = isTimeZone(row.timezone) ? row.timezone : timeZoneOr(row.time_zone);
    const when = dateTimeIn(zone, row.next_due_at, t.language);
    const title = row.title.replace(/\s+/g, ' ').trim();
    const lines = [
      t.t('reminder_mail.body', { when, zone, title }),
      ...(row.message ? ['', row.message] : []),
      '',
      t.t('reminder_mail.open', { url: `${this.deps.publicUrl}/notes/${row.note_id}/` }),
    ];
    return { to: row.email, subject: t.t('reminder_mail.subject', { title }).slice(0, 200), text: lines.join('\n') };
  }
}

function notificationText(t: Translator, row: DueReminder): string {
  return row.message ? t.t('reminder_mail.notification_message', { title: row.title, message: row.message }) : t.t('reminder_mail.subject', { title: row.title });
}

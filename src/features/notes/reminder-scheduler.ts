import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { BackgroundJob } from '../../platform/background.js';
import type { Mail, MailLog } from '../../platform/mail/mailer.js';
import type { Outbox } from '../../platform/mail/outbox.js';
import type { Notifier } from '../../services.js';
import { chooseLanguage, translator, type Translator } from '../../platform/i18n/index.js';
import { dateTimeIn, isTimeZone, timeZoneOr } from '../../platform/time-zones.js';
import { nextOccurrence, parseWallTime } from '../../platform/wall-clock.js';

export interface SchedulerOptions {
  /** How often the table is looked at for reminders added on other instances. */
  pollMs: number;
  /** Reminders claimed per transaction. */
  batchSize: number;
  /** Batches per round before the loop lets other work run. */
  batchesPerRound: number;
  /** How long a shutdown waits for the round under way (its transaction rolls back otherwise). */
  stopWaitMs: number;
}

const LOCKED_RETRY_MS = 50;

export const DEFAULT_SCHEDULER_OPTIONS: SchedulerOptions = { pollMs: 30_000, batchSize: 50, batchesPerRound: 20, stopWaitMs: 1_000 };

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
  private readonly options: SchedulerOptions;
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires, epoch ms (Infinity: none set). */
  private timerAt = Infinity;
  private round: Promise<number> | undefined;
  /** A reminder added during a round falls due then. */
  private addedDueAt = Infinity;
  private started = false;
  private stopped = false;

  constructor(
    private readonly deps: Deps,
    options: Partial<SchedulerOptions> = {},
  ) {
    this.options = { ...DEFAULT_SCHEDULER_OPTIONS, ...options };
  }

  /** Delivers what fell due while no instance ran, then keeps watching. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.wakeAt(Date.now());
  }

  /** A reminder due at `at` was added here: wake up then rather than at the next poll. */
  added(at: number): void {
    if (!this.started || this.stopped) return;
    if (this.round) this.addedDueAt = Math.min(this.addedDueAt, at);
    else if (at < this.timerAt) this.wakeAt(at);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.round) await Promise.race([this.round, new Promise((resolve) => setTimeout(resolve, this.options.stopWaitMs).unref())]);
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
        .limit(this.options.batchSize);
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

  private wakeAt(at: number): void {
    clearTimeout(this.timer);
    const delay = Math.min(Math.max(0, at - Date.now()), this.options.pollMs);
    this.timerAt = Date.now() + delay;
    this.timer = setTimeout(() => void this.runRound(), delay);
    // The loop alone does not keep a process alive.
    this.timer.unref();
  }

  private async runRound(): Promise<void> {
    if (this.round || this.stopped) return;
    this.timerAt = Infinity;
    this.addedDueAt = Infinity;
    this.round = this.deliverBatches().catch((error: unknown) => {
      this.deps.log.error({ err: error }, 'reminder round failed');
      return Date.now() + this.options.pollMs;
    });
    const nextDue = await this.round;
    this.round = undefined;
    if (!this.stopped) this.wakeAt(Math.min(nextDue, this.addedDueAt));
  }

  /** Batches until none is full or the round's share is used; returns when to look again. */
  private async deliverBatches(): Promise<number> {
    for (let batch = 0; batch < this.options.batchesPerRound && !this.stopped; batch += 1) {
      // A due row left is one another instance holds (SKIP LOCKED): look again shortly, not in a spin.
      if ((await this.deliverDue()) < this.options.batchSize) return Math.max(await this.earliestDue(), Date.now() + LOCKED_RETRY_MS);
    }
    return Date.now();
  }
}

function notificationText(t: Translator, row: DueReminder): string {
  return row.message ? t.t('reminder_mail.notification_message', { title: row.title, message: row.message }) : t.t('reminder_mail.subject', { title: row.title });
}

import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Mail } from './mailer.js';

export interface QueuedMail extends Mail {
  id: number;
  /** Attempts begun, this one included. */
  attempts: number;
}

/**
 * The durable queue between a page and the SMTP server. A page only inserts rows; a sender loop
 * (sender.ts) on any instance claims due rows, sends them, and deletes them once sent (a sent
 * reset link is not kept lying around) or reschedules them with back-off.
 */
export class Outbox {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    /** Told after mail was queued, so this instance's sender need not wait for its next round. */
    private readonly onQueued: () => void = () => undefined,
  ) {}

  /**
   * Queues the mails. An empty list still runs one INSERT (of no rows), so that a caller's time
   * does not show whether it had anything to send (password reset answers unknown addresses so).
   */
  async enqueue(mails: Mail[], now = Date.now()): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // PostgreSQL commits a transaction that wrote a row only once its WAL is flushed, and one
      // that wrote none at once: a millisecond-sized difference between "mail queued" and "none".
      // Not waiting for the flush makes both the same; a crash may then lose the last few queued
      // mails (a person asks again), never corrupt anything.
      if (this.dialect === 'postgres') await sql`set local synchronous_commit to off`.execute(trx);
      if (mails.length === 0) {
        await trx
          .insertInto('mail_outbox')
          .columns(['recipient', 'subject', 'body', 'next_attempt_at', 'created_at'])
          .expression((eb) => eb.selectFrom('mail_outbox').select(['recipient', 'subject', 'body', 'next_attempt_at', 'created_at']).where(sql<boolean>`1 = 0`))
          .execute();
        return;
      }
      await this.enqueueIn(trx, mails, now);
    });
    if (mails.length > 0) this.wake();
  }

  /**
   * Queues the mails in the caller's transaction `db`, so that they are queued if and only if
   * the change they tell of commits; call `wake()` once it has.
   */
  async enqueueIn(db: Kysely<Database>, mails: Mail[], now = Date.now()): Promise<void> {
    if (mails.length === 0) return;
    await db
      .insertInto('mail_outbox')
      .values(mails.map((mail) => ({ recipient: mail.to, subject: mail.subject, body: mail.text, next_attempt_at: now, created_at: now })))
      .execute();
  }

  /** Tells this instance's sender that mail was queued, so it need not wait for its next round. */
  wake(): void {
    this.onQueued();
  }

  /**
   * Claims up to `limit` due mails for `leaseMs`, in one statement: no other sender takes them
   * until the claim runs out. On PostgreSQL rows another instance is claiming are skipped
   * (SKIP LOCKED), not waited for; SQLite has one writer, so the statement runs alone.
   */
  async claimDue(limit: number, leaseMs: number, now = Date.now()): Promise<QueuedMail[]> {
    const rows = await this.db
      .updateTable('mail_outbox')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: now + leaseMs }))
      .where('id', 'in', (eb) => {
        const due = eb.selectFrom('mail_outbox').select('id').where('next_attempt_at', '<=', now).orderBy('next_attempt_at').orderBy('id').limit(limit);
        return this.dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
      })
      .returning(['id', 'recipient', 'subject', 'body', 'attempts'])
      .execute();
    return rows.map((row) => ({ id: row.id, to: row.recipient, subject: row.subject, text: row.body, attempts: row.attempts }));
  }

  /** Sent, or given up. */
  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('mail_outbox').where('id', '=', id).execute();
  }

  async retryAt(id: number, at: number, error: string): Promise<void> {
    await this.db.updateTable('mail_outbox').set({ next_attempt_at: at, last_error: error.slice(0, 1000) }).where('id', '=', id).execute();
  }
}

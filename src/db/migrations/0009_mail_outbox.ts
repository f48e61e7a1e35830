import { type Kysely, sql } from 'kysely';
import { withId } from './dialect.js';

// Mail waits here until the sender loop (platform/mail/sender.ts) has handed it to the SMTP
// server: a page only inserts a row, and a mail survives a restart or an SMTP outage.
// `next_attempt_at` is both when a mail is due and, once claimed, how long its claim holds.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('mail_outbox'))
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
    .addColumn('last_error', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['next_attempt_at', 'id']).execute();
  // Password reset finds accounts by address, case-insensitively (as Django's email__iexact).
  await db.schema.createIndex('users_email_lower').on('users').expression(sql`lower(email)`).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_email_lower').execute();
  await db.schema.dropTable('mail_outbox').execute();
}

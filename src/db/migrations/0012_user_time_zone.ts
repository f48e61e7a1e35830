import type { Kysely } from 'kysely';

// Each user's IANA time zone (guessed by the browser at registration, changed on the account
// page): "today", due dates and overdue items are theirs. Existing users start on UTC.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('timezone', 'text', (col) => col.notNull().defaultTo('UTC')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('timezone').execute();
}

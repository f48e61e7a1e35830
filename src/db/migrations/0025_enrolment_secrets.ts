import type { Kysely } from 'kysely';

// A two-factor secret waiting to be confirmed belongs to the session that is enrolling, not to
// the account: another session (a borrowed one) never sees the secret the owner will scan. The
// secrets that waited on accounts until now were shown to whoever opened the page: dropped.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('totp_pending_secret', 'varchar(64)').execute();
  await db.updateTable('users').set({ totp_secret: null }).where('totp_enabled', '=', 0).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('totp_pending_secret').execute();
}

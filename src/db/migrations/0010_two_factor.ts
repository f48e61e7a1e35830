import type { Kysely } from 'kysely';
import { withId } from './dialect.js';

// Two-factor sign-in (TOTP, RFC 6238): the user's secret (kept while enrolment is pending, so a
// reload shows the same QR code), whether it is on, and the last time step a code was accepted
// at (a code is refused at that step or an earlier one, so none can be replayed). Recovery codes
// are stored as SHA-256 hashes; using one deletes its row.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_secret', 'varchar(64)').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled', 'smallint', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();

  await withId(db, db.schema.createTable('recovery_codes'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('recovery_codes_user_id').on('recovery_codes').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('recovery_codes').execute();
  for (const column of ['totp_last_step', 'totp_enabled', 'totp_secret']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}

import type { Kysely } from 'kysely';

// The address a session was opened from, shown on "my sessions" beside its browser, so that a
// session nobody recognises can be told apart and ended. Sessions opened before are shown with
// an empty address.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('ip_address', 'text', (col) => col.notNull().defaultTo('')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('ip_address').execute();
}

import type { Kysely } from 'kysely';

// The currency a user's shopping totals and prices are shown in: an ISO 4217 code from
// the account page's short list, or '' for none (plain numbers, as before).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('currency', 'varchar(3)', (col) => col.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('currency').execute();
}

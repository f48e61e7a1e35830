import type { Kysely } from 'kysely';

// The language a user chose on the account page: a catalogue's code (`uk`), or '' to
// follow the browser's Accept-Language, as before.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('language', 'varchar(8)', (col) => col.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('language').execute();
}

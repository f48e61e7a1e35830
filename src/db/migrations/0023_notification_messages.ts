import type { Kysely } from 'kysely';

// A notification's words as a catalogue key with its values, JSON, so that each
// reader sees it in their own language; '' for the rows written before, shown by their text.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('notifications')
    .addColumn('message', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notifications').dropColumn('message').execute();
}

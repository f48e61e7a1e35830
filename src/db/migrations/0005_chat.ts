import type { Kysely } from 'kysely';
import { withId } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('chat_messages'))
    .addColumn('group_id', 'integer', (col) => col.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  // History is always "the latest N of one group, before id X": ids grow with time.
  await db.schema.createIndex('chat_messages_group_id').on('chat_messages').columns(['group_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chat_messages').execute();
}

import { type Kysely, sql } from 'kysely';
import { withId } from './dialect.js';

// In-app notifications: a reminder fell due, someone added you to a group or shared a list with
// you. Written in the transaction of the change that causes them (platform/notifications.ts), so
// one is never lost nor doubled; deleting the user deletes theirs.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('notifications'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    /** A same-site path to what it is about, or ''. */
    .addColumn('link', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('read_at', 'bigint')
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();
  // The unread count is read with every page's session: an index of the unread rows only.
  await db.schema.createIndex('notifications_unread').on('notifications').columns(['user_id']).where(sql.ref('read_at'), 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
}

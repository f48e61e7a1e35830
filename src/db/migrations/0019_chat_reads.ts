import type { Kysely } from 'kysely';

// How far each member has read each group's chat: the unread counts of /groups/ and the header.
// No row is "nothing read yet". A member's rows go with the user or the group.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('chat_reads')
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (col) => col.notNull().references('groups.id').onDelete('cascade'))
    /** The newest message id the member has been shown; every message above it is unread. */
    .addColumn('last_read_message_id', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('chat_reads_pk', ['user_id', 'group_id'])
    .execute();
  // The primary key serves "this user's marks"; deleting a group looks them up by group.
  await db.schema.createIndex('chat_reads_group').on('chat_reads').columns(['group_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chat_reads').execute();
}

import type { Kysely } from 'kysely';
import { withId } from './dialect.js';

// What happened in a group lately, for its page: a note shared into it, a shopping list added to
// it or changed, a member added, leaving or removed. Each row is written in the transaction of
// the change (platform/activity.ts). Rows about an object name it by kind and id only: who may
// read the row is decided when it is read, by the object's own visibility rule, so a row never
// shows more than its object does now. The maintenance sweep keeps the table bounded.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('group_activity'))
    .addColumn('group_id', 'integer', (col) => col.notNull().references('groups.id').onDelete('cascade'))
    /** `note.shared`, `list.added`, `list.changed`, `member.added`, `member.left`, `member.removed`. */
    .addColumn('kind', 'varchar(40)', (col) => col.notNull())
    /** Who did it; null once their account is deleted. */
    .addColumn('actor_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    /** The member a member event is about. */
    .addColumn('member_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    /** The kind of object (`note`, `shopping`) and its id, for events about one; no reference: it may go first. */
    .addColumn('object_kind', 'varchar(40)')
    .addColumn('object_id', 'integer')
    /** How many changes one row stands for (a shop of 30 ticks is one row). */
    .addColumn('count', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  // The group page reads a group's newest rows; a change finds its object's recent row to add to.
  await db.schema.createIndex('group_activity_group').on('group_activity').columns(['group_id', 'updated_at']).execute();
  await db.schema.createIndex('group_activity_object').on('group_activity').columns(['object_kind', 'object_id']).execute();
  await db.schema.createIndex('group_activity_age').on('group_activity').column('updated_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('group_activity').execute();
}

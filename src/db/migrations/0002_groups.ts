import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { withId } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('groups'))
    .addColumn('name', 'varchar(150)', (col) => col.notNull())
    .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('groups_name_ci').on('groups').unique().expression(sql`lower(name)`).execute();

  await db.schema
    .createTable('group_members')
    .addColumn('group_id', 'integer', (col) => col.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('joined_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
    .execute();
  // "Which groups is user U in" is on the hot path of every visibility query.
  await db.schema.createIndex('group_members_user').on('group_members').columns(['user_id', 'group_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('group_members').execute();
  await db.schema.dropTable('groups').execute();
}

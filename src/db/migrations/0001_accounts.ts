import { type Kysely, sql } from 'kysely';
import { withId } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('users'))
    .addColumn('username', 'varchar(150)', (col) => col.notNull())
    .addColumn('email', 'varchar(254)', (col) => col.notNull().defaultTo(''))
    .addColumn('password', 'varchar(255)', (col) => col.notNull())
    .addColumn('is_active', 'smallint', (col) => col.notNull().defaultTo(1))
    .addColumn('date_joined', 'bigint', (col) => col.notNull())
    .addColumn('last_login', 'bigint')
    .execute();
  // Usernames are unique regardless of case, and looked up the same way.
  await db.schema.createIndex('users_username_ci').on('users').unique().expression(sql`lower(username)`).execute();
  await db.schema.createIndex('users_email').on('users').expression(sql`lower(email)`).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('session_key', 'varchar(40)', (col) => col.primaryKey())
    .addColumn('session_data', 'text', (col) => col.notNull())
    .addColumn('expire_date', 'bigint', (col) => col.notNull())
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('last_seen', 'bigint', (col) => col.notNull())
    .addColumn('user_agent', 'varchar(300)', (col) => col.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('sessions_expire_date').on('sessions').column('expire_date').execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

  await withId(db, db.schema.createTable('login_failures'))
    .addColumn('scope', 'varchar(200)', (col) => col.notNull())
    .addColumn('at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('login_failures_scope_at').on('login_failures').columns(['scope', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_failures').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}

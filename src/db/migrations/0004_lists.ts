import type { Kysely } from 'kysely';
import { withId } from './dialect.js';

// To-do lists and shopping lists: each with its items and its shares (users it is shared with).

async function createShares(db: Kysely<any>, table: string, listTable: string): Promise<void> {
  await db.schema
    .createTable(table)
    .addColumn('list_id', 'integer', (col) => col.notNull().references(`${listTable}.id`).onDelete('cascade'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint(`${table}_pk`, ['list_id', 'user_id'])
    .execute();
  // "Which lists are shared with user U" is on the path of every visibility query.
  await db.schema.createIndex(`${table}_user`).on(table).columns(['user_id', 'list_id']).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('todo_lists'))
    .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'varchar(200)', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('todo_lists_owner').on('todo_lists').column('owner_id').execute();
  await createShares(db, 'todo_list_shares', 'todo_lists');
  await withId(db, db.schema.createTable('todo_items'))
    .addColumn('list_id', 'integer', (col) => col.notNull().references('todo_lists.id').onDelete('cascade'))
    .addColumn('text', 'varchar(500)', (col) => col.notNull())
    .addColumn('due_date', 'varchar(10)')
    .addColumn('is_done', 'smallint', (col) => col.notNull().defaultTo(0))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('todo_items_list').on('todo_items').columns(['list_id', 'position']).execute();

  await withId(db, db.schema.createTable('shopping_lists'))
    .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'varchar(200)', (col) => col.notNull())
    .addColumn('store_name', 'varchar(200)', (col) => col.notNull().defaultTo(''))
    .addColumn('group_id', 'integer', (col) => col.references('groups.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('shopping_lists_owner').on('shopping_lists').column('owner_id').execute();
  await db.schema.createIndex('shopping_lists_group').on('shopping_lists').column('group_id').execute();
  await createShares(db, 'shopping_list_shares', 'shopping_lists');
  await withId(db, db.schema.createTable('shopping_items'))
    .addColumn('list_id', 'integer', (col) => col.notNull().references('shopping_lists.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)', (col) => col.notNull())
    // Thousandths of a unit, so that 1.5 kg is kept exactly (1500) without floating point.
    .addColumn('quantity_milli', 'integer', (col) => col.notNull().defaultTo(1000))
    .addColumn('unit', 'varchar(30)', (col) => col.notNull().defaultTo(''))
    .addColumn('estimated_price_cents', 'integer')
    .addColumn('is_bought', 'smallint', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('shopping_items_list').on('shopping_items').column('list_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['shopping_items', 'shopping_list_shares', 'shopping_lists', 'todo_items', 'todo_list_shares', 'todo_lists']) {
    await db.schema.dropTable(table).execute();
  }
}

import type { Kysely } from 'kysely';

// Households: a list's share (or a shopping list's group) may be given `tick` instead of `read`,
// letting those people tick and add items (never rename, delete or re-share). Items remember who
// added them and who ticked them when, and a to-do item may be assigned to someone. The people
// columns keep the item when the person is deleted (ON DELETE SET NULL): the item is the owner's.

const PEOPLE = {
  todo_items: { people: ['created_by', 'done_by', 'assignee_id'], at: 'done_at' },
  shopping_items: { people: ['created_by', 'bought_by'], at: 'bought_at' },
} as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['todo_list_shares', 'shopping_list_shares']) {
    await db.schema.alterTable(table).addColumn('permission', 'varchar(10)', (col) => col.notNull().defaultTo('read')).execute();
  }
  await db.schema.alterTable('shopping_lists').addColumn('group_permission', 'varchar(10)', (col) => col.notNull().defaultTo('read')).execute();
  for (const [table, { people, at }] of Object.entries(PEOPLE)) {
    for (const column of people) {
      await db.schema.alterTable(table).addColumn(column, 'integer', (col) => col.references('users.id').onDelete('set null')).execute();
    }
    await db.schema.alterTable(table).addColumn(at, 'bigint').execute();
  }
  // "Open items assigned to me" on /todo/.
  await db.schema.createIndex('todo_items_assignee').on('todo_items').columns(['assignee_id', 'is_done']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('todo_items_assignee').execute();
  for (const [table, { people, at }] of Object.entries(PEOPLE)) {
    for (const column of [...people, at]) await db.schema.alterTable(table).dropColumn(column).execute();
  }
  await db.schema.alterTable('shopping_lists').dropColumn('group_permission').execute();
  for (const table of ['todo_list_shares', 'shopping_list_shares']) {
    await db.schema.alterTable(table).dropColumn('permission').execute();
  }
}

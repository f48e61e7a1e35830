import type { Kysely } from 'kysely';

// A to-do list may belong to one of its owner's groups, as a shopping list may (0004, 0017): the
// group's members read it, and tick and add items when its `group_permission` is `tick`. A member
// who joins later sees it; one who leaves or is removed stops. Deleting the group leaves the list
// with its owner, in no group (ON DELETE SET NULL). Until now "share with a group's members" made
// a share per member of that moment; those shares stay as they are.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('todo_lists')
    .addColumn('group_id', 'integer', (col) => col.references('groups.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('todo_lists').addColumn('group_permission', 'varchar(10)', (col) => col.notNull().defaultTo('read')).execute();
  // "The lists of the groups U is in" is on the path of every visibility query, as for shopping lists.
  await db.schema.createIndex('todo_lists_group').on('todo_lists').column('group_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('todo_lists_group').execute();
  await db.schema.alterTable('todo_lists').dropColumn('group_permission').execute();
  await db.schema.alterTable('todo_lists').dropColumn('group_id').execute();
}

import type { Kysely } from 'kysely';

// A shopping item's "bought" is what a to-do item's "done" is: the same columns under the same
// names, so that both kinds of list are served by one engine (features/lists/). Only the names
// change: the rows, their values, their indexes and their foreign keys stay as they are. The JSON
// API and the export keep saying `is_bought`, `bought_by` and `bought_at` for shopping items.

const RENAMES = [
  ['is_bought', 'is_done'],
  ['bought_by', 'done_by'],
  ['bought_at', 'done_at'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [from, to] of RENAMES) await db.schema.alterTable('shopping_items').renameColumn(from, to).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [from, to] of RENAMES) await db.schema.alterTable('shopping_items').renameColumn(to, from).execute();
}

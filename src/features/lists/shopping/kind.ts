import { sql } from 'kysely';
import type { ShoppingList } from '../../../db/schema.js';
import { jsonRowsFrom } from '../../../db/json-rows.js';
import type { Message } from '../../../platform/i18n/index.js';
import { type ItemRow, type ListKind, orderPart } from '../kind.js';
import type { ShoppingItemInput, ShoppingListInput } from './forms.js';

// Shopping lists: a store, and a group whose members read the list (and tick it, when the list's
// group permission says so); items with a quantity, a unit and an estimated price, the list's
// estimated total made of those still to buy. "Bought" is the engine's done.

/** An item as the pages show it. */
export type ShoppingItemRow = ItemRow & { name: string; quantity_milli: number; unit: string; estimated_price_cents: number | null };

/** A list with the name of its group (null without one); in the API's collection, its items still to buy (JSON). */
export type ShoppingListRow = ShoppingList & { group_name: string | null; to_buy?: unknown };

/** What of an item its list's estimated total is made of. */
export type ShoppingItemPrice = Pick<ShoppingItemRow, 'quantity_milli' | 'estimated_price_cents' | 'is_done'>;

const item = (column: string) => sql.ref(`shopping_items.${column}`);
const listId = sql.ref<number>('shopping_lists.id');

export const SHOPPING: ListKind<ShoppingListRow, ShoppingItemRow, ShoppingListInput, ShoppingItemInput> = {
  name: 'shopping',
  base: '/shopping',
  noun: 'shopping list',
  plural: 'Shopping lists',
  cardLabel: 'shopping.card_label',
  navigation: 'nav.shopping',
  tables: { lists: 'shopping_lists', items: 'shopping_items', shares: 'shopping_list_shares' },
  group: { heading: 'shopping.shelf_heading' },
  list: {
    values: (input) => ({
      title: input.title,
      store_name: input.store_name,
      group_id: input.group,
      group_permission: input.group_permission,
      ...(input.currency === undefined ? {} : { currency: input.currency }),
    }),
    // A list made without a currency (an API client that sends none) takes its owner's, as the form's choice does.
    insertDefaults: (db, ownerId) => ({ currency: db.selectFrom('users').select('users.currency').where('users.id', '=', ownerId) }),
    columns: (db) => [db.selectFrom('groups').select('groups.name').where('groups.id', '=', sql.ref<number>('shopping_lists.group_id')).as('group_name')],
    // The items still to buy: the estimated total of each list of the collection.
    apiColumns: (db) => [
      jsonRowsFrom(
        db,
        db
          .selectFrom('shopping_items')
          .select(['shopping_items.quantity_milli', 'shopping_items.estimated_price_cents', 'shopping_items.is_done'])
          .where('shopping_items.list_id', '=', listId)
          .where('shopping_items.is_done', '=', 0),
      ).as('to_buy'),
    ],
  },
  items: {
    columns: () => [item('name').as('name'), item('quantity_milli').as('quantity_milli'), item('unit').as('unit'), item('estimated_price_cents').as('estimated_price_cents')],
    // Those still to buy first, each part in the order they were added.
    order: () => [item('is_done'), item('id')],
    orderKey: (row) => `${row.is_done}:${orderPart(row.id)}`,
    insert: (_db, input) => ({
      name: sql<string>`${input.name}`,
      quantity_milli: sql<number>`cast(${input.quantity} as integer)`,
      unit: sql<string>`${input.unit}`,
      estimated_price_cents: sql<number | null>`cast(${input.estimated_price} as integer)`,
    }),
    update: (_db, input) => ({ name: input.name, quantity_milli: input.quantity, unit: input.unit, estimated_price_cents: input.estimated_price }),
    label: (entry) => entry.name,
  },
  summary: {
    columns: (db) => [
      db.selectFrom('shopping_items').select((c) => c.fn.countAll<number>().as('n')).where('shopping_items.list_id', '=', listId).where('shopping_items.is_done', '=', 0).as('to_buy'),
    ],
    detail: (row): Message => {
      const toBuy = Number(row.to_buy);
      return row.store_name ? { key: 'shopping.detail_store', values: { store: String(row.store_name), toBuy } } : { key: 'shopping.detail', values: { toBuy } };
    },
  },
};

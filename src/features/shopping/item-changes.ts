import { sql } from 'kysely';
import { ShoppingListAccess } from './access.js';
import type { ShoppingItemInput } from './forms.js';

/** The changes to items, each one statement scoped through ShoppingListAccess's definitions. */
export class ShoppingItemChanges extends ShoppingListAccess {
  /**
   * Adds an item to a list the user may tick, the check and the insert in one statement; the new
   * item's id, or undefined when the user may not add to such a list.
   */
  async insertTickableItem(userId: number, listId: number, input: ShoppingItemInput, now = Date.now()): Promise<number | undefined> {
    const row = await this.db
      .insertInto('shopping_items')
      .columns(['list_id', 'name', 'quantity_milli', 'unit', 'estimated_price_cents', 'created_at', 'created_by'])
      .expression(
        this.tickableLists(userId)
          .select([
            'shopping_lists.id',
            sql<string>`${input.name}`.as('name'),
            sql<number>`cast(${input.quantity} as integer)`.as('quantity_milli'),
            sql<string>`${input.unit}`.as('unit'),
            sql<number | null>`cast(${input.estimated_price} as integer)`.as('estimated_price_cents'),
            sql<number>`cast(${now} as bigint)`.as('created_at'),
            sql<number>`cast(${userId} as integer)`.as('created_by'),
          ])
          .where('shopping_lists.id', '=', listId),
      )
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  /**
   * Flips "bought" on an item of a list the user may tick, in one scoped statement, noting who
   * bought it and when (cleared when it is put back); its list id, or undefined.
   */
  async toggleTickableItem(userId: number, itemId: number, now = Date.now()): Promise<number | undefined> {
    const row = await this.db
      .updateTable('shopping_items')
      .set((eb) => ({
        is_bought: sql<number>`1 - is_bought`,
        bought_by: eb.case().when('is_bought', '=', 0).then(sql<number>`cast(${userId} as integer)`).else(null).end(),
        bought_at: eb.case().when('is_bought', '=', 0).then(sql<number>`cast(${now} as bigint)`).else(null).end(),
      }))
      .where('id', '=', itemId)
      .where('list_id', 'in', this.tickableLists(userId).select('shopping_lists.id'))
      .returning('list_id')
      .executeTakeFirst();
    return row?.list_id;
  }

  /**
   * Sets "bought" on an item of a list the user may tick, scoped like toggleTickableItem; marking
   * a bought item bought again keeps who bought it. Its list id, or undefined.
   */
  async markTickableItem(userId: number, itemId: number, bought: boolean, now = Date.now()): Promise<number | undefined> {
    const row = await this.db
      .updateTable('shopping_items')
      .set((eb) =>
        bought
          ? {
              is_bought: 1,
              bought_by: eb.case().when('is_bought', '=', 1).then(eb.ref('bought_by')).else(sql<number>`cast(${userId} as integer)`).end(),
              bought_at: eb.case().when('is_bought', '=', 1).then(eb.ref('bought_at')).else(sql<number>`cast(${now} as bigint)`).end(),
            }
          : { is_bought: 0, bought_by: null, bought_at: null },
      )
      .where('id', '=', itemId)
      .where('list_id', 'in', this.tickableLists(userId).select('shopping_lists.id'))
      .returning('list_id')
      .executeTakeFirst();
    return row?.list_id;
  }

  /** Deletes an item of a list the user owns, in one scoped statement; its list id, or undefined. */
  async deleteOwnedItem(userId: number, itemId: number): Promise<number | undefined> {
    const row = await this.db
      .deleteFrom('shopping_items')
      .where('id', '=', itemId)
      .where('list_id', 'in', this.ownedLists(userId).select('shopping_lists.id'))
      .returning('list_id')
      .executeTakeFirst();
    return row?.list_id;
  }

  /** An item of a list the user owns (the edit and delete pages), or undefined. */
  findOwnedItem(userId: number, itemId: number) {
    return this.db
      .selectFrom('shopping_items')
      .selectAll('shopping_items')
      .where('shopping_items.id', '=', itemId)
      .where('shopping_items.list_id', 'in', this.ownedLists(userId).select('shopping_lists.id'))
      .executeTakeFirst();
  }

  /** Changes an item of a list the user owns, in one scoped statement (who bought it stays); its list id, or undefined. */
  async updateOwnedItem(userId: number, itemId: number, input: ShoppingItemInput): Promise<number | undefined> {
    const row = await this.db
      .updateTable('shopping_items')
      .set({ name: input.name, quantity_milli: input.quantity, unit: input.unit, estimated_price_cents: input.estimated_price })
      .where('id', '=', itemId)
      .where('list_id', 'in', this.ownedLists(userId).select('shopping_lists.id'))
      .returning('list_id')
      .executeTakeFirst();
    return row?.list_id;
  }

  /** Deletes the bought items of a list the user owns, in one scoped statement; the ids deleted (none when not the owner). */
  async deleteBoughtItems(userId: number, listId: number): Promise<number[]> {
    const rows = await this.db
      .deleteFrom('shopping_items')
      .where('list_id', '=', listId)
      .where('is_bought', '=', 1)
      .where('list_id', 'in', this.ownedLists(userId).select('shopping_lists.id'))
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }
}

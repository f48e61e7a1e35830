import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import { type AudienceMember, audienceColumn, readAudience } from '../../platform/audience.js';
import { shoppingAudience } from './audience.js';
import type { ShoppingItem, ShoppingList } from '../../db/schema.js';
import { lockedForUpdate } from '../../db/locks.js';
import { recordChange } from '../groups/activity.js';
import type { GroupChoice, ListRole, SharedUser } from '../lists-sharing/sharing.js';
import { ShoppingItemChanges } from './item-changes.js';
import type { ShoppingListInput } from './forms.js';

export type ShoppingListWithNames = ShoppingList & { owner_name: string; group_name: string | null };

/** A list with what its page shows. */
export interface ShoppingListPageRows {
  list: ShoppingListWithNames;
  /** What the caller may do with it. */
  role: ListRole;
  items: ShoppingItemRow[];
  /** Who the list is shared with; empty unless the caller owns it. */
  sharedWith: SharedUser[];
  /** The owner's groups, to share the list with their members; empty unless the caller owns it. */
  ownerGroups: GroupChoice[];
  /** Everyone who may read the list and what each may do (the "who can see this" panel). */
  audience: AudienceMember[];
}

/** An item with the usernames of who added it and who bought it (null when none or deleted). */
export type ShoppingItemRow = ShoppingItem & { created_by_name: string | null; bought_by_name: string | null };

const ITEM_COLUMNS = [
  'shopping_items.id',
  'shopping_items.list_id',
  'shopping_items.name',
  'shopping_items.quantity_milli',
  'shopping_items.unit',
  'shopping_items.estimated_price_cents',
  'shopping_items.is_bought',
  'shopping_items.created_at',
  'shopping_items.created_by',
  'shopping_items.bought_by',
  'shopping_items.bought_at',
  'creator.username as created_by_name',
  'buyer.username as bought_by_name',
] as const;

export type ShoppingItemPrice = Pick<ShoppingItem, 'quantity_milli' | 'estimated_price_cents' | 'is_bought'>;

/** A list as the API's collection shows it: without its items, but with the estimated total's part. */
export interface ShoppingListSummaryRows {
  list: ShoppingListWithNames;
  /** The items not yet bought, what the estimated total is made of. */
  toBuy: ShoppingItemPrice[];
  sharedWith: SharedUser[];
}

/** The lists' queries and changes, each scoped through ShoppingListAccess's definitions. */
export class ShoppingRepository extends ShoppingItemChanges {
  /** Visible lists with the owner's and the group's names. */
  private visibleWithNames(userId: number) {
    return this.visibleLists(userId)
      .innerJoin('users', 'users.id', 'shopping_lists.owner_id')
      .leftJoin('groups', 'groups.id', 'shopping_lists.group_id')
      .selectAll('shopping_lists')
      .select(['users.username as owner_name', 'groups.name as group_name']);
  }

  /**
   * A list the user may read with its items, those still to buy first, each part in the order
   * they were added (a JSON array), and, for its owner, who it is shared with: one query for the page.
   */
  async findVisiblePage(userId: number, listId: number): Promise<ShoppingListPageRows | undefined> {
    const row = await this.visibleWithNames(userId)
      .select((eb) => [
        this.roleCase(eb, userId).as('role'),
        jsonRowsFrom(
          this.db,
          eb
            .selectFrom('shopping_items')
            .leftJoin('users as creator', 'creator.id', 'shopping_items.created_by')
            .leftJoin('users as buyer', 'buyer.id', 'shopping_items.bought_by')
            .select(ITEM_COLUMNS)
            .whereRef('shopping_items.list_id', '=', 'shopping_lists.id')
            .orderBy('shopping_items.is_bought')
            .orderBy('shopping_items.id'),
        ).as('items'),
        this.shares.sharedUsersForOwner(userId).as('shared_with'),
        this.shares.ownerGroups(userId).as('owner_groups'),
        audienceColumn(this.db, shoppingAudience(this.db, listId)).as('audience'),
      ])
      .where('shopping_lists.id', '=', listId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { items, shared_with, owner_groups, role, audience, ...list } = row;
    return { list, role, items: parseJsonRows<ShoppingItemRow>(items), sharedWith: parseJsonRows<SharedUser>(shared_with), ownerGroups: parseJsonRows<GroupChoice>(owner_groups), audience: readAudience(audience) };
  }

  /**
   * A page of the lists the user may read, most recently changed first (the index's order), after
   * the list whose [updated_at, id] is `after`, with the items still to buy (for the estimated
   * total); for the API, which pages through them.
   */
  async visibleListsAfter(userId: number, after: readonly [number, number] | null, limit: number): Promise<ShoppingListSummaryRows[]> {
    let query = this.visibleWithNames(userId).select((eb) => [
      jsonRowsFrom(
        this.db,
        eb
          .selectFrom('shopping_items')
          .select(['shopping_items.quantity_milli', 'shopping_items.estimated_price_cents', 'shopping_items.is_bought'])
          .whereRef('shopping_items.list_id', '=', 'shopping_lists.id')
          .where('shopping_items.is_bought', '=', 0),
      ).as('to_buy'),
      this.shares.sharedUsersForOwner(userId).as('shared_with'),
    ]);
    if (after) {
      const [updatedAt, id] = after;
      query = query.where((eb) =>
        eb.or([eb('shopping_lists.updated_at', '<', updatedAt), eb.and([eb('shopping_lists.updated_at', '=', updatedAt), eb('shopping_lists.id', '<', id)])]),
      );
    }
    const rows = await query.orderBy('shopping_lists.updated_at', 'desc').orderBy('shopping_lists.id', 'desc').limit(limit).execute();
    return rows.map(({ to_buy, shared_with, ...list }) => ({
      list,
      toBuy: parseJsonRows<ShoppingItemPrice>(to_buy),
      sharedWith: parseJsonRows<SharedUser>(shared_with),
    }));
  }

  /** An item of a list the user may read. */
  findVisibleItem(userId: number, itemId: number): Promise<ShoppingItemRow | undefined> {
    return this.db
      .selectFrom('shopping_items')
      .leftJoin('users as creator', 'creator.id', 'shopping_items.created_by')
      .leftJoin('users as buyer', 'buyer.id', 'shopping_items.bought_by')
      .select(ITEM_COLUMNS)
      .where('shopping_items.id', '=', itemId)
      .where('shopping_items.list_id', 'in', this.visibleLists(userId).select('shopping_lists.id'))
      .executeTakeFirst();
  }

  async lockOwnedList(userId: number, listId: number): Promise<boolean> {
    const query = this.ownedLists(userId).select('shopping_lists.id').where('shopping_lists.id', '=', listId);
    return (await lockedForUpdate(this.db, query).executeTakeFirst()) !== undefined;
  }

  async lockTickableItem(userId: number, itemId: number): Promise<boolean> {
    const query = this.db
      .selectFrom('shopping_items')
      .select('shopping_items.id')
      .where('shopping_items.id', '=', itemId)
      .where('shopping_items.list_id', 'in', this.tickableLists(userId).select('shopping_lists.id'));
    return (await lockedForUpdate(this.db, query).executeTakeFirst()) !== undefined;
  }

  findOwnedList(userId: number, listId: number): Promise<ShoppingList | undefined> {
    return this.ownedLists(userId).selectAll('shopping_lists').where('shopping_lists.id', '=', listId).executeTakeFirst();
  }

  /** Every list the user may read, most recently changed first, with its count of items still to buy. */
  summaries(userId: number) {
    return this.visibleWithNames(userId)
      .select((eb) => [
        eb
          .selectFrom('shopping_items')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('shopping_items.list_id', '=', 'shopping_lists.id')
          .where('shopping_items.is_bought', '=', 0)
          .as('to_buy'),
        eb
          .selectFrom('shopping_list_shares')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('shopping_list_shares.list_id', '=', 'shopping_lists.id')
          .as('share_count'),
      ])
      .orderBy('shopping_lists.updated_at', 'desc')
      .orderBy('shopping_lists.id', 'desc')
      .execute();
  }

  async insertList(ownerId: number, input: ShoppingListInput, now = Date.now()): Promise<number> {
    const row = await this.db
      .insertInto('shopping_lists')
      .values({ owner_id: ownerId, title: input.title, store_name: input.store_name, group_id: input.group, group_permission: input.group_permission, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** False when the user owns no such list. */
  async updateOwnedList(userId: number, listId: number, input: ShoppingListInput, now = Date.now()): Promise<boolean> {
    const result = await this.db
      .updateTable('shopping_lists')
      .set({ title: input.title, store_name: input.store_name, group_id: input.group, group_permission: input.group_permission, updated_at: now })
      .where('id', '=', listId)
      .where('owner_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes the list with its items and shares (ON DELETE CASCADE). False when the user owns no such list. */
  async deleteOwnedList(userId: number, listId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('shopping_lists').where('id', '=', listId).where('owner_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async touchList(listId: number, now = Date.now()): Promise<void> {
    await this.db.updateTable('shopping_lists').set({ updated_at: now }).where('id', '=', listId).execute();
  }

  /** A change to a group list's items shows in the group's activity (changes in a row are one event). */
  async itemsChanged(listId: number, userId: number): Promise<void> {
    const groupOf = this.db.selectFrom('shopping_lists').select('shopping_lists.group_id').where('shopping_lists.id', '=', listId).$asScalar();
    await recordChange(this.db, { actorId: userId, object: { kind: 'shopping', id: listId }, groupOf });
  }

  /** The list's group now, to record a list put into a group; undefined when the user owns no such list. */
  async ownedListGroup(userId: number, listId: number): Promise<number | null | undefined> {
    return (await this.ownedLists(userId).select('shopping_lists.group_id').where('shopping_lists.id', '=', listId).executeTakeFirst())?.group_id;
  }
}

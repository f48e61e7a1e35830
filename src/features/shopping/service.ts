import type { Kysely } from 'kysely';
import type { Database, ShoppingList } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { Message } from '../../platform/i18n/index.js';
import type { Notifications } from '../notifications/notifications.js';
import { type ActivityEvent, recordActivity } from '../groups/activity.js';
import { SHOPPING } from './kind.js';
import type { FormErrors } from '../../platform/forms.js';
import type { ListAnnouncements } from '../lists-sharing/live-events.js';
import { OwnedListService } from '../lists-sharing/owned-list-service.js';
import type { ListSummary } from '../lists-sharing/views.js';
import type { ShoppingItemInput, ShoppingListInput } from './forms.js';
import { type EstimatedTotal, estimatedTotal } from './money.js';
import { type ShoppingItemRow, type ShoppingListPageRows, ShoppingRepository } from './repository.js';

export type Outcome<T> = { ok: true; value: T } | { ok: false; errors: FormErrors };

export interface ShoppingPage extends ShoppingListPageRows {
  total: EstimatedTotal;
  /** True for the owner only: renames, deletes, shares, deletes items. */
  canEdit: boolean;
  /** True for the owner, tick users and group members when the group may tick: ticks and adds items. */
  canTick: boolean;
}

/** The group activity event of a list put into a group (made for it, or moved to it). */
const addedTo = (groupId: number, ownerId: number, listId: number): ActivityEvent => ({ groupId, kind: 'list.added', actorId: ownerId, object: { kind: 'shopping', id: listId } });

const NOT_YOUR_GROUP: FormErrors = { group: ['shopping.choose_group'] };

// Reads go through the repository's visible query, changes through its owned ones (the shared
// owner's changes are in OwnedListService): what the caller may not reach is a NotFound.
export class ShoppingService extends OwnedListService<ShoppingList, ShoppingItemInput, ShoppingRepository> {
  constructor(db: Kysely<Database>, notifications: Notifications | null = null, live: ListAnnouncements | null = null) {
    super(db, (handle) => new ShoppingRepository(handle), SHOPPING, notifications, live);
  }

  async index(userId: number): Promise<ListSummary[]> {
    const rows = await this.lists.summaries(userId);
    return rows.map((row) => {
      const toBuy = Number(row.to_buy);
      const detail: Message = row.store_name ? { key: 'shopping.detail_store', values: { store: row.store_name, toBuy } } : { key: 'shopping.detail', values: { toBuy } };
      return { id: row.id, title: row.title, owner_id: row.owner_id, owner_name: row.owner_name, group_name: row.group_name, share_count: Number(row.share_count), detail };
    });
  }

  /** A page of the lists the user may read, after the one whose [updated_at, id] is `after` (the API's collection). */
  listsAfter(userId: number, after: readonly [number, number] | null, limit: number) {
    return this.lists.visibleListsAfter(userId, after, limit);
  }

  /** An item of a list the user may read. */
  async item(userId: number, itemId: number): Promise<ShoppingItemRow> {
    const item = await this.lists.findVisibleItem(userId, itemId);
    if (!item) throw new NotFound();
    return item;
  }

  async page(userId: number, listId: number): Promise<ShoppingPage> {
    const page = await this.lists.findVisiblePage(userId, listId);
    if (!page) throw new NotFound();
    return { ...page, total: estimatedTotal(page.items), canEdit: page.role === 'owner', canTick: page.role !== 'read' };
  }

  /** An item of a list the user owns (its edit and delete pages); NotFound for anyone else. */
  async ownedItem(userId: number, itemId: number) {
    const item = await this.lists.findOwnedItem(userId, itemId);
    if (!item) throw new NotFound();
    return item;
  }

  /** Owner only, like deleting: changes the item, and live pages get its new row; its list id. */
  editItem(userId: number, itemId: number, input: ShoppingItemInput): Promise<number> {
    return this.changeItem(userId, itemId, (lists) => lists.updateOwnedItem(userId, itemId, input));
  }

  /** Owner only: deletes the bought items in one statement; live pages see them go. How many went. */
  async clearBought(userId: number, listId: number): Promise<number> {
    await this.ownedList(userId, listId);
    const ids = await this.transaction(async (lists) => {
      const deleted = await lists.deleteBoughtItems(userId, listId);
      if (deleted.length > 0) {
        await lists.touchList(listId);
        await lists.itemsChanged(listId, userId);
      }
      return deleted;
    });
    for (const itemId of ids) await this.live?.itemRemoved(this.db, listId, itemId);
    return ids.length;
  }

  /** The groups the user may attach a list to. */
  groupChoices(userId: number) {
    return this.lists.groups.listForMember(userId);
  }

  async create(userId: number, input: ShoppingListInput): Promise<Outcome<number>> {
    if (!(await this.mayUseGroup(userId, input.group))) return { ok: false, errors: NOT_YOUR_GROUP };
    const listId = await this.inTransaction(async (lists, trx) => {
      const id = await lists.insertList(userId, input);
      if (input.group !== null) await recordActivity(trx, addedTo(input.group, userId, id));
      return id;
    });
    return { ok: true, value: listId };
  }

  async update(userId: number, listId: number, input: ShoppingListInput): Promise<Outcome<number>> {
    if (!(await this.mayUseGroup(userId, input.group))) return { ok: false, errors: NOT_YOUR_GROUP };
    const group = input.group;
    const updated = await this.inTransaction(async (lists, trx) => {
      const before = await lists.ownedListGroup(userId, listId);
      if (before === undefined || !(await lists.updateOwnedList(userId, listId, input))) return false;
      if (group !== null && before !== group) await recordActivity(trx, addedTo(group, userId, listId));
      return true;
    });
    if (!updated) throw new NotFound();
    // Its group may have changed: that group's members gain or lose the list.
    this.live?.accessChanged(listId);
    return { ok: true, value: listId };
  }

  /** `work` in the caller's transaction when this service runs in one (the API's), else in a new one. */
  private inTransaction<T>(work: (lists: ShoppingRepository, trx: Kysely<Database>) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this.lists, this.db);
    return this.db.transaction().execute((trx) => work(new ShoppingRepository(trx), trx));
  }

  private async mayUseGroup(userId: number, groupId: number | null): Promise<boolean> {
    return groupId === null || this.lists.groups.isMember(groupId, userId);
  }
}

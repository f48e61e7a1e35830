import { msgWith } from '../../platform/i18n/index.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { Notifications } from '../notifications/notifications.js';
import type { ListAnnouncements } from './live-events.js';
import { type ListRole, type ShareOutcome, type SharesRepository, changeShare, shareWithGroup } from './sharing.js';
import type { ListKind } from './views.js';

/**
 * What the changes need from a list kind's repository: every method is scoped to the caller, to
 * the owner (list changes, item deletes, shares) or to those who may tick (ticks, new items).
 */
export interface OwnedListRepository<List, ItemInput> {
  readonly shares: SharesRepository;
  roleOf(userId: number, listId: number): Promise<ListRole | undefined>;
  findOwnedList(userId: number, listId: number): Promise<List | undefined>;
  deleteOwnedList(userId: number, listId: number): Promise<boolean>;
  /** The new item's id, or undefined when the user may not tick the list. */
  insertTickableItem(userId: number, listId: number, input: ItemInput): Promise<number | undefined>;
  /** The item's list id, or undefined when the user may tick no list holding such an item. */
  toggleTickableItem(userId: number, itemId: number): Promise<number | undefined>;
  /** Sets done (bought) rather than flipping it, for the API; the list id, or undefined like toggleTickableItem. */
  markTickableItem(userId: number, itemId: number, done: boolean): Promise<number | undefined>;
  /** Locks the owned list's row until the transaction ends (on PostgreSQL); false when the user owns no such list. */
  lockOwnedList(userId: number, listId: number): Promise<boolean>;
  /** Locks an item of a list the user may tick likewise; false when there is no such item. */
  lockTickableItem(userId: number, itemId: number): Promise<boolean>;
  deleteOwnedItem(userId: number, itemId: number): Promise<number | undefined>;
  touchList(listId: number): Promise<void>;
  /** After a change to the list's items by `userId`, in its transaction (a group list's activity). */
  itemsChanged?(listId: number, userId: number): Promise<void>;
}

/**
 * The changes, the same for to-do and shopping lists. Every method takes the caller's id and
 * reaches lists only through owned or tickable queries: a list the caller may not change is a
 * NotFound, like an absent one.
 */
export abstract class OwnedListService<
  List extends { id: number; owner_id: number; title: string },
  ItemInput,
  Repository extends OwnedListRepository<List, ItemInput>,
> {
  protected readonly lists: Repository;

  constructor(
    protected readonly db: Kysely<Database>,
    private readonly repository: (db: Kysely<Database>) => Repository,
    /** What the lists are called and where they live, for the notification of a share. */
    private readonly kind: ListKind,
    /** Tells users a list was shared with them; none, nobody is told. */
    private readonly notifications: Notifications | null = null,
    /** Tells the list's open pages of its changes; none, nobody is told. */
    protected readonly live: ListAnnouncements | null = null,
  ) {
    this.lists = repository(db);
  }

  async ownedList(userId: number, listId: number): Promise<List> {
    const list = await this.lists.findOwnedList(userId, listId);
    if (!list) throw new NotFound();
    return list;
  }

  /**
   * For a read-check-write in one transaction (the API's If-Match): call it on a service built on
   * that transaction; another transaction's change to the list then waits until this one ends.
   */
  async lockOwned(userId: number, listId: number): Promise<void> {
    if (!(await this.lists.lockOwnedList(userId, listId))) throw new NotFound();
  }

  async lockTickableItem(userId: number, itemId: number): Promise<void> {
    if (!(await this.lists.lockTickableItem(userId, itemId))) throw new NotFound();
  }

  /** What the user may do with the list; NotFound when they may not see it. */
  async role(userId: number, listId: number): Promise<ListRole> {
    const role = await this.lists.roleOf(userId, listId);
    if (!role) throw new NotFound();
    return role;
  }

  /** NotFound unless the user may tick and add items: a reader's form is never looked at. */
  async requireTick(userId: number, listId: number): Promise<void> {
    if ((await this.role(userId, listId)) === 'read') throw new NotFound();
  }

  async delete(userId: number, listId: number): Promise<void> {
    if (!(await this.lists.deleteOwnedList(userId, listId))) throw new NotFound();
    this.live?.accessChanged(listId);
  }

  /** `sharedBy` names the owner in the notification of the user it is shared with. */
  async share(userId: number, listId: number, body: unknown, sharedBy?: string): Promise<ShareOutcome> {
    const list = await this.ownedList(userId, listId);
    const notice = this.notifications && {
      notifications: this.notifications,
      notification: {
        kind: 'list.shared',
        text: sharedBy
          ? msgWith('lists.notification_shared_by', { by: sharedBy, kind: this.kind.name, title: list.title })
          : msgWith('lists.notification_shared', { kind: this.kind.name, title: list.title }),
        link: `${this.kind.base}/${list.id}/`,
      },
    };
    const byGroup = typeof body === 'object' && body !== null && (body as Record<string, unknown>).action === 'add_group';
    const outcome = await (byGroup ? shareWithGroup : changeShare)(this.lists.shares, list, body, notice ?? undefined);
    if (outcome.ok) this.live?.accessChanged(listId);
    return outcome;
  }

  /** Adds an item as the owner or a tick user; returns the new item's id. */
  async addItem(userId: number, listId: number, input: ItemInput): Promise<number> {
    const itemId = await this.transaction(async (lists) => {
      const itemId = await lists.insertTickableItem(userId, listId, input);
      if (itemId === undefined) throw new NotFound();
      await lists.touchList(listId);
      await lists.itemsChanged?.(listId, userId);
      return itemId;
    });
    await this.live?.itemChanged(this.db, userId, listId, itemId);
    return itemId;
  }

  /** Ticks or unticks an item as the owner or a tick user; returns the item's list id, to go back to it. */
  toggleItem(userId: number, itemId: number): Promise<number> {
    return this.changeItem(userId, itemId, (lists) => lists.toggleTickableItem(userId, itemId));
  }

  /** Marks an item done (bought) or not, as toggleItem; returns its list id. */
  markItem(userId: number, itemId: number, done: boolean): Promise<number> {
    return this.changeItem(userId, itemId, (lists) => lists.markTickableItem(userId, itemId, done));
  }

  /** Owner only: a tick user may add and tick, never remove. */
  deleteItem(userId: number, itemId: number): Promise<number> {
    return this.changeItem(userId, itemId, (lists) => lists.deleteOwnedItem(userId, itemId), true);
  }

  /** A change to one item in a transaction with its list's touch and activity, announced after it; the item's list id. */
  protected async changeItem(userId: number, itemId: number, change: (lists: Repository) => Promise<number | undefined>, removed = false): Promise<number> {
    const listId = await this.transaction(async (lists) => {
      const listId = await change(lists);
      if (listId === undefined) throw new NotFound();
      await lists.touchList(listId);
      await lists.itemsChanged?.(listId, userId);
      return listId;
    });
    await (removed ? this.live?.itemRemoved(this.db, listId, itemId) : this.live?.itemChanged(this.db, userId, listId, itemId));
    return listId;
  }

  /** `work` in a transaction of its own, or in the caller's when this service was built on one. */
  protected transaction<T>(work: (lists: Repository) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this.lists);
    return this.db.transaction().execute((trx) => work(this.repository(trx)));
  }
}

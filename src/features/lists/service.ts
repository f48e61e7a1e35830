import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { FormErrors, Outcome } from '../../platform/forms.js';
import { type Message, type MessageKey, msgWith } from '../../platform/i18n/index.js';
import { type ActivityEvent, groupShareNotice, recordActivity, recordChange } from '../groups/index.js';
import type { Notifier } from '../../services.js';
import type { ItemRow, ListKind, ListRole, ListRow } from './kind.js';
import type { ListAnnouncements } from './live-events.js';
import { type ListPageRows, type ListSummary, type ListsRepository, listsRepository } from './repository.js';
import { type ShareOutcome, changeShare } from './sharing.js';

// What people do with lists, the same for every kind. Every method takes the caller's id and
// reaches lists only through the access definitions: a list the caller may not see, or may see
// but not change, is a NotFound, like an absent one. Changes are made in a transaction with the
// list's touch and (lists in a group) the group's activity, and announced to live pages after it.

export interface ListPage<List, Item> extends ListPageRows<List, Item> {
  /** True for the owner only: renames, deletes, shares, edits and deletes items. */
  canEdit: boolean;
  /** True for whoever may tick and add items. */
  canTick: boolean;
}

/** A list of the index, with its line of detail in words. */
export type ListCard = Omit<ListSummary, 'row'> & { detail: Message };

/** What a kind checks of an input beyond its form's own rules, with the database: errors per field, or none. */
export interface ListChecks<List extends ListRow, Item extends ItemRow, ListInput, ItemInput> {
  /** A list's input (a kind with groups: the group is one of the owner's). */
  list?(db: Kysely<Database>, userId: number, input: ListInput): Promise<FormErrors | null>;
  /** An item's input, for list `listId` (a to-do item's assignee may read the list). */
  item?(repository: ListsRepository<List, Item, ListInput, ItemInput>, listId: number, input: ItemInput): Promise<FormErrors | null>;
  /** The group a list's input puts it in (kinds with groups). */
  groupOf?(input: ListInput): number | null;
  /**
   * After an item was added or edited by `actorId`, in that transaction: tells whom the change
   * concerns (a to-do item's new assignee) through `notifier`; the users told.
   */
  itemWritten?(db: Kysely<Database>, notifier: Notifier, actorId: number, itemId: number, input: ItemInput): Promise<number[]>;
}

export class ListService<List extends ListRow, Item extends ItemRow, ListInput, ItemInput> {
  readonly lists: ListsRepository<List, Item, ListInput, ItemInput>;

  constructor(
    private readonly db: Kysely<Database>,
    readonly kind: ListKind<List, Item, ListInput, ItemInput>,
    private readonly checks: ListChecks<List, Item, ListInput, ItemInput> = {},
    /** Tells users a list was shared with them; none, nobody is told. */
    private readonly notifications: Notifier | null = null,
    /** Tells the list's open pages of its changes; none, nobody is told. */
    private readonly live: ListAnnouncements | null = null,
  ) {
    this.lists = listsRepository(db, kind);
  }

  /** The same service on another handle (a transaction), announcing through `live`. */
  on(db: Kysely<Database>, live: ListAnnouncements | null): ListService<List, Item, ListInput, ItemInput> {
    return new ListService(db, this.kind, this.checks, this.notifications, live);
  }

  async index(userId: number): Promise<ListCard[]> {
    const rows = await this.lists.summaries(userId);
    return rows.map(({ row, ...card }) => ({ ...card, detail: this.kind.summary.detail(row) }));
  }

  /** A page of the lists the user may read, after the one whose [updated_at, id] is `after` (the API's collection). */
  listsAfter(userId: number, after: readonly [number, number] | null, limit: number) {
    return this.lists.visibleListsAfter(userId, after, limit);
  }

  async page(userId: number, listId: number): Promise<ListPage<List, Item>> {
    const page = await this.lists.findVisiblePage(userId, listId);
    if (!page) throw new NotFound();
    return { ...page, canEdit: page.role === 'owner', canTick: page.role !== 'read' };
  }

  /** An item of a list the user may read. */
  async item(userId: number, itemId: number): Promise<Item> {
    const item = await this.lists.items.findVisible(userId, itemId);
    if (!item) throw new NotFound();
    return item;
  }

  /** An item of a list the user owns (its edit and delete pages); NotFound for anyone else. */
  async ownedItem(userId: number, itemId: number): Promise<Item> {
    const item = await this.lists.items.findOwned(userId, itemId);
    if (!item) throw new NotFound();
    return item;
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
    if (!(await this.lists.items.lockTickable(userId, itemId))) throw new NotFound();
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

  /** The groups the user may put a list in. */
  groupChoices(userId: number) {
    return this.lists.groupChoices(userId);
  }

  async create(userId: number, input: ListInput): Promise<Outcome<number>> {
    const errors = await this.checks.list?.(this.db, userId, input);
    if (errors) return { ok: false, errors };
    const group = this.checks.groupOf?.(input) ?? null;
    const { listId, told } = await this.transaction(async (service, trx) => {
      const id = await service.lists.insertList(userId, input);
      return { listId: id, told: group === null ? [] : await this.putInGroup(trx, group, userId, id) };
    });
    this.announce(told);
    return { ok: true, value: listId };
  }

  async update(userId: number, listId: number, input: ListInput): Promise<Outcome<number>> {
    const errors = await this.checks.list?.(this.db, userId, input);
    if (errors) return { ok: false, errors };
    const group = this.checks.groupOf?.(input) ?? null;
    const updated = await this.transaction(async (service, trx) => {
      const before = this.kind.group ? await service.lists.ownedListGroup(userId, listId) : null;
      if (before === undefined || !(await service.lists.updateOwnedList(userId, listId, input))) return null;
      return group !== null && before !== group ? await this.putInGroup(trx, group, userId, listId) : [];
    });
    if (!updated) throw new NotFound();
    this.announce(updated);
    // Its group may have changed: that group's members gain or lose the list.
    if (this.kind.group) this.live?.accessChanged(listId);
    return { ok: true, value: listId };
  }

  async delete(userId: number, listId: number): Promise<void> {
    if (!(await this.lists.deleteOwnedList(userId, listId))) throw new NotFound();
    this.live?.listDeleted(listId);
  }

  /** `sharedBy` names the owner in the notification of the user it is shared with. */
  async share(userId: number, listId: number, body: unknown, sharedBy?: string): Promise<ShareOutcome> {
    const list = await this.ownedList(userId, listId);
    const values = { kind: this.kind.name, title: list.title };
    const notice = this.notifications && {
      notifications: this.notifications,
      notification: {
        kind: 'list.shared',
        text: sharedBy ? msgWith('lists.notification_shared_by', { by: sharedBy, ...values }) : msgWith('lists.notification_shared', values),
        link: `${this.kind.base}/${list.id}/`,
      },
    };
    // By name only: a list's group is its form's (a list belongs to a group, or is shared with people).
    const outcome = await changeShare(this.lists.shares, list, body, notice ?? undefined);
    if (outcome.ok) this.live?.accessChanged(listId);
    return outcome;
  }

  /** Adds an item as whoever may tick; its input checked by the kind first (after the permission: a reader learns nothing). Returns the new item's id. */
  async addItem(userId: number, listId: number, input: ItemInput): Promise<Outcome<number>> {
    await this.requireTick(userId, listId);
    const errors = await this.checks.item?.(this.lists, listId, input);
    if (errors) return { ok: false, errors };
    const { itemId, told } = await this.transaction(async (service, trx) => {
      const itemId = await service.lists.items.insert(userId, listId, input);
      if (itemId === undefined) throw new NotFound();
      await service.changed(listId, userId);
      return { itemId, told: await this.itemWritten(trx, userId, itemId, input) };
    });
    await this.live?.itemChanged(this.db, userId, listId, itemId);
    this.announce(told);
    return { ok: true, value: itemId };
  }

  /**
   * Ticks or unticks an item as whoever may tick; returns the item's list id, to go back to it.
   * A tick from a page whose list is gone, or no longer the caller's to tick, is the NotFound of
   * a missing item, worded for what the caller just did (`lists.tick_gone`).
   */
  toggleItem(userId: number, itemId: number): Promise<number> {
    return this.changeItem(userId, itemId, (service) => service.lists.items.toggle(userId, itemId), { gone: 'lists.tick_gone' });
  }

  /** Marks an item done (bought) or not, as toggleItem; returns its list id. */
  markItem(userId: number, itemId: number, done: boolean): Promise<number> {
    return this.changeItem(userId, itemId, (service) => service.lists.items.mark(userId, itemId, done));
  }

  /** Owner only, like deleting: changes the item, its input checked by the kind first; live pages get its new row. Its list id. */
  async editItem(userId: number, itemId: number, input: ItemInput): Promise<Outcome<number>> {
    const item = await this.ownedItem(userId, itemId);
    const errors = await this.checks.item?.(this.lists, item.list_id, input);
    if (errors) return { ok: false, errors };
    let told: number[] = [];
    const listId = await this.changeItem(userId, itemId, async (service) => {
      const listId = await service.lists.items.updateOwned(userId, itemId, item.list_id, input);
      if (listId !== undefined) told = await this.itemWritten(service.lists.db, userId, itemId, input);
      return listId;
    });
    this.announce(told);
    return { ok: true, value: listId };
  }

  /** Owner only: whoever may tick may add and tick, never remove. */
  deleteItem(userId: number, itemId: number): Promise<number> {
    return this.changeItem(userId, itemId, (service) => service.lists.items.deleteOwned(userId, itemId), { removed: true });
  }

  /** Owner only: deletes the done (bought) items in one statement; live pages see them go. How many went. */
  async clearDone(userId: number, listId: number): Promise<number> {
    await this.ownedList(userId, listId);
    const ids = await this.transaction(async (service) => {
      const deleted = await service.lists.items.deleteDone(userId, listId);
      if (deleted.length > 0) await service.changed(listId, userId);
      return deleted;
    });
    for (const itemId of ids) await this.live?.itemRemoved(this.db, listId, itemId);
    return ids.length;
  }

  /**
   * A change to one item in a transaction with its list's touch and activity, announced after it;
   * the item's list id. `gone` words the NotFound of an item the caller may not change.
   */
  private async changeItem(
    userId: number,
    itemId: number,
    change: (service: ListService<List, Item, ListInput, ItemInput>) => Promise<number | undefined>,
    { removed = false, gone }: { removed?: boolean; gone?: MessageKey } = {},
  ): Promise<number> {
    const listId = await this.transaction(async (service) => {
      const listId = await change(service);
      if (listId === undefined) throw new NotFound(gone);
      await service.changed(listId, userId);
      return listId;
    });
    await (removed ? this.live?.itemRemoved(this.db, listId, itemId) : this.live?.itemChanged(this.db, userId, listId, itemId));
    return listId;
  }

  /** After a change to a list's items by `userId`, in its transaction: the list is touched and, in a group, the group's activity counts it (changes in a row are one event). */
  private async changed(listId: number, userId: number): Promise<void> {
    await this.lists.touchList(listId);
    if (this.kind.group) await recordChange(this.db, { actorId: userId, object: { kind: this.kind.name, id: listId }, groupOf: this.lists.groupOf(listId) });
  }

  /**
   * A list put into a group by its owner (made for it, or moved to it), in the change's
   * transaction: the group's activity records it, and its other members are told; those told.
   */
  private async putInGroup(trx: Kysely<Database>, groupId: number, ownerId: number, listId: number): Promise<number[]> {
    await recordActivity(trx, this.addedTo(groupId, ownerId, listId));
    if (!this.notifications) return [];
    const { lists } = this.kind.tables;
    const title = trx.selectFrom(lists).select(sql.ref<string>(`${lists}.title`).as('title')).where(sql.ref<number>(`${lists}.id`), '=', listId).$asScalar();
    const { recipients, notification } = groupShareNotice(trx, { groupId, actorId: ownerId, object: { kind: this.kind.name, title, path: `${this.kind.base}/${listId}/` } });
    return this.notifications.addMerging(trx, recipients, notification);
  }

  /** The kind's notices of an item's change (checks.itemWritten), in its transaction; those told. */
  private itemWritten(trx: Kysely<Database>, actorId: number, itemId: number, input: ItemInput): Promise<number[]> {
    if (!this.notifications || !this.checks.itemWritten) return Promise.resolve([]);
    return this.checks.itemWritten(trx, this.notifications, actorId, itemId, input);
  }

  /** Tells the open pages of users just notified, once the change has committed (the caller's transaction's too: ListAnnouncements.afterCommit). */
  private announce(userIds: number[]): void {
    const notifications = this.notifications;
    if (userIds.length === 0 || !notifications) return;
    if (this.live) this.live.afterCommit(() => notifications.announce(userIds));
    else notifications.announce(userIds);
  }

  /** The group activity event of a list put into a group (made for it, or moved to it). */
  private addedTo(groupId: number, ownerId: number, listId: number): ActivityEvent {
    return { groupId, kind: 'list.added', actorId: ownerId, object: { kind: this.kind.name, id: listId } };
  }

  /** `work` in a transaction of its own, or in the caller's when this service was built on one. */
  private transaction<T>(work: (service: ListService<List, Item, ListInput, ItemInput>, trx: Kysely<Database>) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this, this.db);
    return this.db.transaction().execute((trx) => work(this.on(trx, this.live), trx));
  }
}

import type { Kysely } from 'kysely';
import type { Database, ShoppingItem, ShoppingList } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { FormErrors } from '../../platform/views/forms.js';
import { type ShareOutcome, type SharedUser, changeShare } from '../lists-sharing/sharing.js';
import type { ListSummary } from '../lists-sharing/views.js';
import type { ShoppingItemInput, ShoppingListInput } from './forms.js';
import { type EstimatedTotal, estimatedTotal } from './money.js';
import { ShoppingRepository, type ShoppingListWithNames } from './repository.js';

export type Outcome<T> = { ok: true; value: T } | { ok: false; errors: FormErrors };

export interface ShoppingPage {
  list: ShoppingListWithNames;
  items: ShoppingItem[];
  total: EstimatedTotal;
  /** True for the owner only: everyone else reads. */
  canEdit: boolean;
  /** Who the list is shared with; shown to the owner only. */
  sharedWith: SharedUser[];
}

const NOT_YOUR_GROUP: FormErrors = { group: ['Choose one of your groups, or none.'] };

// Every method takes the caller's id and reaches lists only through the repository's
// visible/owned queries: a list the caller may not read or change is a NotFound, like an absent one.
export class ShoppingService {
  private readonly lists: ShoppingRepository;

  constructor(private readonly db: Kysely<Database>) {
    this.lists = new ShoppingRepository(db);
  }

  async index(userId: number): Promise<ListSummary[]> {
    const rows = await this.lists.summaries(userId);
    return rows.map((row) => {
      const toBuy = Number(row.to_buy);
      const contents = toBuy === 0 ? 'Nothing left to buy' : `${toBuy} to buy`;
      const detail = row.store_name ? `${row.store_name} · ${contents}` : contents;
      return { id: row.id, title: row.title, owner_id: row.owner_id, owner_name: row.owner_name, group_name: row.group_name, share_count: Number(row.share_count), detail };
    });
  }

  async page(userId: number, listId: number): Promise<ShoppingPage> {
    const list = await this.lists.findVisibleList(userId, listId);
    if (!list) throw new NotFound();
    const canEdit = list.owner_id === userId;
    const [items, sharedWith] = await Promise.all([this.lists.items(list.id), canEdit ? this.lists.shares.sharedUsers(list.id) : []]);
    return { list, items, total: estimatedTotal(items), canEdit, sharedWith };
  }

  async ownedList(userId: number, listId: number): Promise<ShoppingList> {
    const list = await this.lists.findOwnedList(userId, listId);
    if (!list) throw new NotFound();
    return list;
  }

  /** The groups the user may attach a list to. */
  groupChoices(userId: number) {
    return this.lists.groups.listForMember(userId);
  }

  async create(userId: number, input: ShoppingListInput): Promise<Outcome<number>> {
    if (!(await this.mayUseGroup(userId, input.group))) return { ok: false, errors: NOT_YOUR_GROUP };
    return { ok: true, value: await this.lists.insertList(userId, input) };
  }

  async update(userId: number, listId: number, input: ShoppingListInput): Promise<Outcome<number>> {
    if (!(await this.mayUseGroup(userId, input.group))) return { ok: false, errors: NOT_YOUR_GROUP };
    if (!(await this.lists.updateOwnedList(userId, listId, input))) throw new NotFound();
    return { ok: true, value: listId };
  }

  async delete(userId: number, listId: number): Promise<void> {
    if (!(await this.lists.deleteOwnedList(userId, listId))) throw new NotFound();
  }

  async share(userId: number, listId: number, body: unknown): Promise<ShareOutcome> {
    const list = await this.ownedList(userId, listId);
    return changeShare(this.lists.shares, list, body);
  }

  async addItem(userId: number, listId: number, input: ShoppingItemInput): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const lists = new ShoppingRepository(trx);
      if (!(await lists.findOwnedList(userId, listId))) throw new NotFound();
      await lists.insertItem(listId, input);
      await lists.touchList(listId);
    });
  }

  /** Returns the item's list id, to go back to it. */
  toggleItem(userId: number, itemId: number): Promise<number> {
    return this.changeItem((lists) => lists.toggleOwnedItem(userId, itemId));
  }

  deleteItem(userId: number, itemId: number): Promise<number> {
    return this.changeItem((lists) => lists.deleteOwnedItem(userId, itemId));
  }

  private async mayUseGroup(userId: number, groupId: number | null): Promise<boolean> {
    return groupId === null || this.lists.groups.isMember(groupId, userId);
  }

  private changeItem(change: (lists: ShoppingRepository) => Promise<number | undefined>): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const lists = new ShoppingRepository(trx);
      const listId = await change(lists);
      if (listId === undefined) throw new NotFound();
      await lists.touchList(listId);
      return listId;
    });
  }
}

import type { Kysely } from 'kysely';
import type { Database, TodoItem } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import { type ShareOutcome, type SharedUser, changeShare } from '../lists-sharing/sharing.js';
import type { ListSummary } from '../lists-sharing/views.js';
import type { TodoItemInput, TodoListInput } from './forms.js';
import { TodoRepository, type TodoListWithOwner } from './repository.js';

export interface TodoPage {
  list: TodoListWithOwner;
  items: TodoItem[];
  /** True for the owner only: everyone else reads. */
  canEdit: boolean;
  /** Who the list is shared with; shown to the owner only. */
  sharedWith: SharedUser[];
}

// Every method takes the caller's id and reaches lists only through the repository's
// visible/owned queries: a list the caller may not read or change is a NotFound, like an absent one.
export class TodoService {
  private readonly lists: TodoRepository;

  constructor(private readonly db: Kysely<Database>) {
    this.lists = new TodoRepository(db);
  }

  index(userId: number): Promise<ListSummary[]> {
    return this.lists.summaries(userId);
  }

  async page(userId: number, listId: number): Promise<TodoPage> {
    const list = await this.lists.findVisibleList(userId, listId);
    if (!list) throw new NotFound();
    const canEdit = list.owner_id === userId;
    const [items, sharedWith] = await Promise.all([this.lists.items(list.id), canEdit ? this.lists.shares.sharedUsers(list.id) : []]);
    return { list, items, canEdit, sharedWith };
  }

  async ownedList(userId: number, listId: number) {
    const list = await this.lists.findOwnedList(userId, listId);
    if (!list) throw new NotFound();
    return list;
  }

  create(userId: number, input: TodoListInput): Promise<number> {
    return this.lists.insertList(userId, input);
  }

  async update(userId: number, listId: number, input: TodoListInput): Promise<void> {
    if (!(await this.lists.updateOwnedList(userId, listId, input))) throw new NotFound();
  }

  async delete(userId: number, listId: number): Promise<void> {
    if (!(await this.lists.deleteOwnedList(userId, listId))) throw new NotFound();
  }

  async share(userId: number, listId: number, body: unknown): Promise<ShareOutcome> {
    const list = await this.ownedList(userId, listId);
    return changeShare(this.lists.shares, list, body);
  }

  async addItem(userId: number, listId: number, input: TodoItemInput): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const lists = new TodoRepository(trx);
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

  private changeItem(change: (lists: TodoRepository) => Promise<number | undefined>): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const lists = new TodoRepository(trx);
      const listId = await change(lists);
      if (listId === undefined) throw new NotFound();
      await lists.touchList(listId);
      return listId;
    });
  }
}

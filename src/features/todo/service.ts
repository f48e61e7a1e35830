import type { Kysely } from 'kysely';
import type { Database, TodoList } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { Notifications } from '../notifications/notifications.js';
import { TODO } from './kind.js';
import type { ListAnnouncements } from '../lists-sharing/live-events.js';
import { OwnedListService } from '../lists-sharing/owned-list-service.js';
import type { ListSummary } from '../lists-sharing/views.js';
import type { FormErrors } from '../../platform/forms.js';
import type { TodoItemInput, TodoListInput } from './forms.js';
import { type AssignedItem, type TodoItemRow, type TodoListPageRows, TodoRepository } from './repository.js';

export interface TodoPage extends TodoListPageRows {
  /** True for the owner only: renames, deletes, shares, deletes items. */
  canEdit: boolean;
  /** True for the owner and tick users: ticks and adds items. */
  canTick: boolean;
  /** Whom a new item may be assigned to (the list's readers); empty unless canTick. */
  assignees: { id: number; username: string }[];
}

export interface TodoIndex {
  lists: ListSummary[];
  assigned: AssignedItem[];
}

export type ItemOutcome = { ok: true; value: number } | { ok: false; errors: FormErrors };

// Reads go through the repository's visible query, changes through its owned ones (the shared
// owner's changes are in OwnedListService): what the caller may not reach is a NotFound.
export class TodoService extends OwnedListService<TodoList, TodoItemInput, TodoRepository> {
  constructor(db: Kysely<Database>, notifications: Notifications | null = null, live: ListAnnouncements | null = null) {
    super(db, (handle) => new TodoRepository(handle), TODO, notifications, live);
  }

  async index(userId: number): Promise<TodoIndex> {
    return { lists: await this.lists.summaries(userId), assigned: await this.lists.assignedTo(userId) };
  }

  /** A page of the lists the user may read, after the one whose [updated_at, id] is `after` (the API's collection). */
  listsAfter(userId: number, after: readonly [number, number] | null, limit: number) {
    return this.lists.visibleListsAfter(userId, after, limit);
  }

  /** An item of a list the user may read. */
  async item(userId: number, itemId: number): Promise<TodoItemRow> {
    const item = await this.lists.findVisibleItem(userId, itemId);
    if (!item) throw new NotFound();
    return item;
  }

  async page(userId: number, listId: number): Promise<TodoPage> {
    const page = await this.lists.findVisiblePage(userId, listId);
    if (!page) throw new NotFound();
    const canTick = page.role !== 'read';
    return { ...page, canEdit: page.role === 'owner', canTick, assignees: canTick ? page.readers : [] };
  }

  /**
   * Adds an item as the owner or a tick user, assigned to someone who may read the list or to
   * nobody. The permission is checked first, so a reader learns nothing about usernames.
   */
  async addAssignedItem(userId: number, listId: number, input: TodoItemInput): Promise<ItemOutcome> {
    await this.requireTick(userId, listId);
    if (input.assignee !== null && (await this.lists.readerNamed(listId, input.assignee)) === undefined) {
      return { ok: false, errors: { assignee: [{ key: 'todo.assignee_cannot_see', values: { username: input.assignee } }] } };
    }
    return { ok: true, value: await this.addItem(userId, listId, input) };
  }

  /** An item of a list the user owns (its edit and delete pages); NotFound for anyone else. */
  async ownedItem(userId: number, itemId: number) {
    const item = await this.lists.findOwnedItem(userId, itemId);
    if (!item) throw new NotFound();
    return item;
  }

  /**
   * Owner only, like deleting: changes the item, assigned to someone who may read the list or to
   * nobody; live pages get its new row. Its list id.
   */
  async editItem(userId: number, itemId: number, input: TodoItemInput): Promise<ItemOutcome> {
    const item = await this.ownedItem(userId, itemId);
    if (input.assignee !== null && (await this.lists.readerNamed(item.list_id, input.assignee)) === undefined) {
      return { ok: false, errors: { assignee: [{ key: 'todo.assignee_cannot_see', values: { username: input.assignee } }] } };
    }
    return { ok: true, value: await this.changeItem(userId, itemId, (lists) => lists.updateOwnedItem(userId, itemId, item.list_id, input)) };
  }

  create(userId: number, input: TodoListInput): Promise<number> {
    return this.lists.insertList(userId, input);
  }

  async update(userId: number, listId: number, input: TodoListInput): Promise<void> {
    if (!(await this.lists.updateOwnedList(userId, listId, input))) throw new NotFound();
  }
}

import type { Kysely } from 'kysely';
import type { Database, TodoItem, TodoList } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { Notifications } from '../../platform/notifications.js';
import { TODO } from './views.js';
import type { LiveListEvents } from '../lists-sharing/live-events.js';
import { OwnedListService } from '../lists-sharing/owned-list-service.js';
import type { ListSummary } from '../lists-sharing/views.js';
import type { TodoItemInput, TodoListInput } from './forms.js';
import { type TodoListPageRows, TodoRepository } from './repository.js';

export interface TodoPage extends TodoListPageRows {
  /** True for the owner only: everyone else reads. */
  canEdit: boolean;
}

// Reads go through the repository's visible query, changes through its owned ones (the shared
// owner's changes are in OwnedListService): what the caller may not reach is a NotFound.
export class TodoService extends OwnedListService<TodoList, TodoItemInput, TodoRepository> {
  constructor(db: Kysely<Database>, notifications: Notifications | null = null, live: LiveListEvents | null = null) {
    super(db, (handle) => new TodoRepository(handle), TODO, notifications, live);
  }

  index(userId: number): Promise<ListSummary[]> {
    return this.lists.summaries(userId);
  }

  /** A page of the lists the user may read, after the one whose [updated_at, id] is `after` (the API's collection). */
  listsAfter(userId: number, after: readonly [number, number] | null, limit: number) {
    return this.lists.visibleListsAfter(userId, after, limit);
  }

  /** An item of a list the user may read. */
  async item(userId: number, itemId: number): Promise<TodoItem> {
    const item = await this.lists.findVisibleItem(userId, itemId);
    if (!item) throw new NotFound();
    return item;
  }

  async page(userId: number, listId: number): Promise<TodoPage> {
    const page = await this.lists.findVisiblePage(userId, listId);
    if (!page) throw new NotFound();
    return { ...page, canEdit: page.list.owner_id === userId };
  }

  create(userId: number, input: TodoListInput): Promise<number> {
    return this.lists.insertList(userId, input);
  }

  async update(userId: number, listId: number, input: TodoListInput): Promise<void> {
    if (!(await this.lists.updateOwnedList(userId, listId, input))) throw new NotFound();
  }
}

import type { Kysely } from 'kysely';
import type { Database, TodoItem, TodoList } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import { OwnedListService } from '../lists-sharing/owned-list-service.js';
import type { SharedUser } from '../lists-sharing/sharing.js';
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

// Reads go through the repository's visible query, changes through its owned ones (the shared
// owner's changes are in OwnedListService): what the caller may not reach is a NotFound.
export class TodoService extends OwnedListService<TodoList, TodoItemInput, TodoRepository> {
  constructor(db: Kysely<Database>) {
    super(db, (handle) => new TodoRepository(handle));
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

  create(userId: number, input: TodoListInput): Promise<number> {
    return this.lists.insertList(userId, input);
  }

  async update(userId: number, listId: number, input: TodoListInput): Promise<void> {
    if (!(await this.lists.updateOwnedList(userId, listId, input))) throw new NotFound();
  }
}

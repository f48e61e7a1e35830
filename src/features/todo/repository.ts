import { type Kysely, sql } from 'kysely';
import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import type { Database, TodoItem, TodoList } from '../../db/schema.js';
import { lockedForUpdate } from '../../db/locks.js';
import { type SharedUser, SharesRepository } from '../lists-sharing/sharing.js';
import type { ListSummary } from '../lists-sharing/views.js';
import type { TodoItemInput, TodoListInput } from './forms.js';

export type TodoListWithOwner = TodoList & { owner_name: string };

/** A list with what its page shows. */
export interface TodoListPageRows {
  list: TodoListWithOwner;
  items: TodoItem[];
  /** Who the list is shared with; empty unless the caller owns it. */
  sharedWith: SharedUser[];
}

export class TodoRepository {
  readonly shares: SharesRepository;

  constructor(private readonly db: Kysely<Database>) {
    this.shares = new SharesRepository(db, 'todo_list_shares');
  }

  /** The one definition of who may read a to-do list: its owner and the users it is shared with. */
  visibleLists(userId: number) {
    return this.db
      .selectFrom('todo_lists')
      .where((eb) => eb.or([eb('todo_lists.owner_id', '=', userId), eb('todo_lists.id', 'in', this.shares.listIdsSharedWith(userId))]));
  }

  /** The one definition of who may change a to-do list and its items: its owner. */
  ownedLists(userId: number) {
    return this.db.selectFrom('todo_lists').where('todo_lists.owner_id', '=', userId);
  }

  /**
   * A list the user may read with its items, open ones first, each part in the order they were
   * added (a JSON array), and, for its owner, who it is shared with: one query for the page.
   */
  async findVisiblePage(userId: number, listId: number): Promise<TodoListPageRows | undefined> {
    const row = await this.visibleLists(userId)
      .innerJoin('users', 'users.id', 'todo_lists.owner_id')
      .selectAll('todo_lists')
      .select((eb) => [
        'users.username as owner_name',
        jsonRowsFrom(
          this.db,
          eb
            .selectFrom('todo_items')
            .select(['todo_items.id', 'todo_items.list_id', 'todo_items.text', 'todo_items.due_date', 'todo_items.is_done', 'todo_items.position', 'todo_items.created_at'])
            .whereRef('todo_items.list_id', '=', 'todo_lists.id')
            .orderBy('todo_items.is_done')
            .orderBy('todo_items.position')
            .orderBy('todo_items.id'),
        ).as('items'),
        this.shares.sharedUsersForOwner(userId).as('shared_with'),
      ])
      .where('todo_lists.id', '=', listId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { items, shared_with, ...list } = row;
    return { list, items: parseJsonRows<TodoItem>(items), sharedWith: parseJsonRows<SharedUser>(shared_with) };
  }

  /**
   * A page of the lists the user may read, most recently changed first (the index's order), after
   * the list whose [updated_at, id] is `after`; for the API, which pages through them.
   */
  async visibleListsAfter(userId: number, after: readonly [number, number] | null, limit: number): Promise<(TodoListWithOwner & { sharedWith: SharedUser[] })[]> {
    let query = this.visibleLists(userId)
      .innerJoin('users', 'users.id', 'todo_lists.owner_id')
      .selectAll('todo_lists')
      .select(['users.username as owner_name', this.shares.sharedUsersForOwner(userId).as('shared_with')]);
    if (after) {
      const [updatedAt, id] = after;
      query = query.where((eb) =>
        eb.or([eb('todo_lists.updated_at', '<', updatedAt), eb.and([eb('todo_lists.updated_at', '=', updatedAt), eb('todo_lists.id', '<', id)])]),
      );
    }
    const rows = await query.orderBy('todo_lists.updated_at', 'desc').orderBy('todo_lists.id', 'desc').limit(limit).execute();
    return rows.map(({ shared_with, ...list }) => ({ ...list, sharedWith: parseJsonRows<SharedUser>(shared_with) }));
  }

  /** An item of a list the user may read. */
  findVisibleItem(userId: number, itemId: number): Promise<TodoItem | undefined> {
    return this.db
      .selectFrom('todo_items')
      .selectAll()
      .where('id', '=', itemId)
      .where('list_id', 'in', this.visibleLists(userId).select('todo_lists.id'))
      .executeTakeFirst();
  }

  async lockOwnedList(userId: number, listId: number): Promise<boolean> {
    const query = this.ownedLists(userId).select('todo_lists.id').where('todo_lists.id', '=', listId);
    return (await lockedForUpdate(this.db, query).executeTakeFirst()) !== undefined;
  }

  async lockOwnedItem(userId: number, itemId: number): Promise<boolean> {
    const query = this.db
      .selectFrom('todo_items')
      .select('todo_items.id')
      .where('todo_items.id', '=', itemId)
      .where('todo_items.list_id', 'in', this.ownedLists(userId).select('todo_lists.id'));
    return (await lockedForUpdate(this.db, query).executeTakeFirst()) !== undefined;
  }

  findOwnedList(userId: number, listId: number): Promise<TodoList | undefined> {
    return this.ownedLists(userId).selectAll('todo_lists').where('todo_lists.id', '=', listId).executeTakeFirst();
  }

  /** Every list the user may read, most recently changed first, with its item counts. */
  async summaries(userId: number): Promise<ListSummary[]> {
    const rows = await this.visibleLists(userId)
      .innerJoin('users', 'users.id', 'todo_lists.owner_id')
      .select((eb) => [
        'todo_lists.id',
        'todo_lists.title',
        'todo_lists.owner_id',
        'users.username as owner_name',
        eb.selectFrom('todo_items').select((c) => c.fn.countAll<number>().as('n')).whereRef('todo_items.list_id', '=', 'todo_lists.id').as('total'),
        eb
          .selectFrom('todo_items')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('todo_items.list_id', '=', 'todo_lists.id')
          .where('todo_items.is_done', '=', 0)
          .as('open'),
        eb
          .selectFrom('todo_list_shares')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('todo_list_shares.list_id', '=', 'todo_lists.id')
          .as('share_count'),
      ])
      .orderBy('todo_lists.updated_at', 'desc')
      .orderBy('todo_lists.id', 'desc')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      owner_id: row.owner_id,
      owner_name: row.owner_name,
      group_name: null,
      share_count: Number(row.share_count),
      detail: Number(row.total) === 0 ? 'No items yet' : `${Number(row.open)} open of ${Number(row.total)}`,
    }));
  }

  async insertList(ownerId: number, input: TodoListInput, now = Date.now()): Promise<number> {
    const row = await this.db
      .insertInto('todo_lists')
      .values({ owner_id: ownerId, title: input.title, description: input.description, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** False when the user owns no such list. */
  async updateOwnedList(userId: number, listId: number, input: TodoListInput, now = Date.now()): Promise<boolean> {
    const result = await this.db
      .updateTable('todo_lists')
      .set({ title: input.title, description: input.description, updated_at: now })
      .where('id', '=', listId)
      .where('owner_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes the list with its items and shares (ON DELETE CASCADE). False when the user owns no such list. */
  async deleteOwnedList(userId: number, listId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('todo_lists').where('id', '=', listId).where('owner_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async insertItem(listId: number, input: TodoItemInput, now = Date.now()): Promise<number> {
    const last = await this.db
      .selectFrom('todo_items')
      .select((eb) => eb.fn.max('position').as('position'))
      .where('list_id', '=', listId)
      .executeTakeFirst();
    const position = last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
    const row = await this.db
      .insertInto('todo_items')
      .values({ list_id: listId, text: input.text, due_date: input.due_date, position, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Flips an item of a list the user owns, in one scoped statement; its list id, or undefined. */
  async toggleOwnedItem(userId: number, itemId: number): Promise<number | undefined> {
    const row = await this.db
      .updateTable('todo_items')
      .set({ is_done: sql<number>`1 - is_done` })
      .where('id', '=', itemId)
      .where('list_id', 'in', this.ownedLists(userId).select('todo_lists.id'))
      .returning('list_id')
      .executeTakeFirst();
    return row?.list_id;
  }

  /** Sets done on an item of a list the user owns, scoped like toggleOwnedItem; its list id, or undefined. */
  async markOwnedItem(userId: number, itemId: number, done: boolean): Promise<number | undefined> {
    const row = await this.db
      .updateTable('todo_items')
      .set({ is_done: done ? 1 : 0 })
      .where('id', '=', itemId)
      .where('list_id', 'in', this.ownedLists(userId).select('todo_lists.id'))
      .returning('list_id')
      .executeTakeFirst();
    return row?.list_id;
  }

  /** Deletes an item of a list the user owns, in one scoped statement; its list id, or undefined. */
  async deleteOwnedItem(userId: number, itemId: number): Promise<number | undefined> {
    const row = await this.db
      .deleteFrom('todo_items')
      .where('id', '=', itemId)
      .where('list_id', 'in', this.ownedLists(userId).select('todo_lists.id'))
      .returning('list_id')
      .executeTakeFirst();
    return row?.list_id;
  }

  async touchList(listId: number, now = Date.now()): Promise<void> {
    await this.db.updateTable('todo_lists').set({ updated_at: now }).where('id', '=', listId).execute();
  }
}

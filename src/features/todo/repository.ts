import { sql } from 'kysely';
import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import { type AudienceMember, audienceColumn, readAudience } from '../../platform/audience.js';
import { todoAudience } from './audience.js';
import type { TodoItem, TodoList } from '../../db/schema.js';
import { lockedForUpdate } from '../../db/locks.js';
import type { GroupChoice, ListRole, SharedUser } from '../lists-sharing/sharing.js';
import { TodoItemChanges } from './item-changes.js';

export type { AssignedItem } from './access.js';
import type { ListSummary } from '../lists-sharing/views.js';
import type { TodoListInput } from './forms.js';

export type TodoListWithOwner = TodoList & { owner_name: string };

/** An item with the usernames of who added it, who ticked it and whom it is assigned to (null when none or deleted). */
export type TodoItemRow = TodoItem & { created_by_name: string | null; done_by_name: string | null; assignee_name: string | null };

/** A list with what its page shows. */
export interface TodoListPageRows {
  list: TodoListWithOwner;
  /** What the caller may do with it. */
  role: ListRole;
  items: TodoItemRow[];
  /** Who the list is shared with; empty unless the caller owns it. */
  sharedWith: SharedUser[];
  /** The owner's groups, to share the list with their members; empty unless the caller owns it. */
  ownerGroups: GroupChoice[];
  /** Everyone who may read the list (whom an item may be assigned to). */
  readers: { id: number; username: string }[];
  /** Everyone who may read the list and what each may do (the "who can see this" panel). */
  audience: AudienceMember[];
}

const ITEM_COLUMNS = [
  'todo_items.id',
  'todo_items.list_id',
  'todo_items.text',
  'todo_items.due_date',
  'todo_items.is_done',
  'todo_items.position',
  'todo_items.created_at',
  'todo_items.created_by',
  'todo_items.done_by',
  'todo_items.done_at',
  'todo_items.assignee_id',
  'creator.username as created_by_name',
  'doer.username as done_by_name',
  'assignee.username as assignee_name',
] as const;

/** The lists' queries and changes, each scoped through TodoListAccess's definitions. */
export class TodoRepository extends TodoItemChanges {
  /**
   * A list the user may read with its items, open ones first by due date (undated last), then
   * done ones, each in the order they were added (a JSON array), and, for its owner, who it is shared with: one query for the page.
   */
  async findVisiblePage(userId: number, listId: number): Promise<TodoListPageRows | undefined> {
    const row = await this.visibleLists(userId)
      .innerJoin('users', 'users.id', 'todo_lists.owner_id')
      .selectAll('todo_lists')
      .select((eb) => [
        'users.username as owner_name',
        this.roleCase(eb, userId).as('role'),
        jsonRowsFrom(
          this.db,
          eb
            .selectFrom('todo_items')
            .leftJoin('users as creator', 'creator.id', 'todo_items.created_by')
            .leftJoin('users as doer', 'doer.id', 'todo_items.done_by')
            .leftJoin('users as assignee', 'assignee.id', 'todo_items.assignee_id')
            .select(ITEM_COLUMNS)
            .whereRef('todo_items.list_id', '=', 'todo_lists.id')
            .orderBy('todo_items.is_done')
            // Open items by due date, the earliest first and the undated last; done items as added.
            .orderBy(sql`case when todo_items.is_done = 0 and todo_items.due_date is null then 1 else 0 end`)
            .orderBy(sql`case when todo_items.is_done = 0 then todo_items.due_date end`)
            .orderBy('todo_items.position')
            .orderBy('todo_items.id'),
        ).as('items'),
        this.shares.sharedUsersForOwner(userId).as('shared_with'),
        this.shares.ownerGroups(userId).as('owner_groups'),
        jsonRowsFrom(this.db, this.readersQuery(listId).select(['users.id', 'users.username']).orderBy('users.username_key')).as('readers'),
        audienceColumn(this.db, todoAudience(this.db, listId)).as('audience'),
      ])
      .where('todo_lists.id', '=', listId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { items, shared_with, owner_groups, readers, role, audience, ...list } = row;
    return {
      list,
      role,
      items: parseJsonRows<TodoItemRow>(items),
      sharedWith: parseJsonRows<SharedUser>(shared_with),
      ownerGroups: parseJsonRows<GroupChoice>(owner_groups),
      readers: parseJsonRows<{ id: number; username: string }>(readers),
      audience: readAudience(audience),
    };
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
  findVisibleItem(userId: number, itemId: number): Promise<TodoItemRow | undefined> {
    return this.db
      .selectFrom('todo_items')
      .leftJoin('users as creator', 'creator.id', 'todo_items.created_by')
      .leftJoin('users as doer', 'doer.id', 'todo_items.done_by')
      .leftJoin('users as assignee', 'assignee.id', 'todo_items.assignee_id')
      .select(ITEM_COLUMNS)
      .where('todo_items.id', '=', itemId)
      .where('todo_items.list_id', 'in', this.visibleLists(userId).select('todo_lists.id'))
      .executeTakeFirst();
  }

  async lockOwnedList(userId: number, listId: number): Promise<boolean> {
    const query = this.ownedLists(userId).select('todo_lists.id').where('todo_lists.id', '=', listId);
    return (await lockedForUpdate(this.db, query).executeTakeFirst()) !== undefined;
  }

  async lockTickableItem(userId: number, itemId: number): Promise<boolean> {
    const query = this.db
      .selectFrom('todo_items')
      .select('todo_items.id')
      .where('todo_items.id', '=', itemId)
      .where('todo_items.list_id', 'in', this.tickableLists(userId).select('todo_lists.id'));
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
      detail: Number(row.total) === 0 ? { key: 'todo.detail_empty' as const } : { key: 'todo.detail' as const, values: { open: Number(row.open), total: Number(row.total) } },
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

  async touchList(listId: number, now = Date.now()): Promise<void> {
    await this.db.updateTable('todo_lists').set({ updated_at: now }).where('id', '=', listId).execute();
  }
}

import { sql } from 'kysely';
import { TodoListAccess } from './access.js';
import type { TodoItemInput } from './forms.js';

/** The changes to items, each one statement scoped through TodoListAccess's definitions. */
export class TodoItemChanges extends TodoListAccess {
  /**
   * Adds an item to a list the user may tick, the check and the insert in one statement; the new
   * item's id, or undefined when the user may not add to such a list. An assignee who may not
   * read the list is left out (the service refuses that first, with a message).
   */
  async insertTickableItem(userId: number, listId: number, input: TodoItemInput, now = Date.now()): Promise<number | undefined> {
    const row = await this.db
      .insertInto('todo_items')
      .columns(['list_id', 'text', 'due_date', 'position', 'created_at', 'created_by', 'assignee_id'])
      .expression(
        this.tickableLists(userId)
          .select((eb) => [
            'todo_lists.id',
            sql<string>`${input.text}`.as('text'),
            sql<string | null>`${input.due_date}`.as('due_date'),
            eb.fn
              .coalesce(
                eb.selectFrom('todo_items').select(sql<number>`max(todo_items.position) + 1`.as('next')).whereRef('todo_items.list_id', '=', 'todo_lists.id'),
                sql.lit(0),
              )
              .as('position'),
            sql<number>`cast(${now} as bigint)`.as('created_at'),
            sql<number>`cast(${userId} as integer)`.as('created_by'),
            (input.assignee === null ? sql<number | null>`cast(${null} as integer)` : this.readerNamedQuery(listId, input.assignee)).as('assignee_id'),
          ])
          .where('todo_lists.id', '=', listId),
      )
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  /**
   * Flips an item of a list the user may tick, in one scoped statement, noting who did it and
   * when (cleared when it is opened again); its list id, or undefined.
   */
  async toggleTickableItem(userId: number, itemId: number, now = Date.now()): Promise<number | undefined> {
    const row = await this.db
      .updateTable('todo_items')
      .set((eb) => ({
        is_done: sql<number>`1 - is_done`,
        done_by: eb.case().when('is_done', '=', 0).then(sql<number>`cast(${userId} as integer)`).else(null).end(),
        done_at: eb.case().when('is_done', '=', 0).then(sql<number>`cast(${now} as bigint)`).else(null).end(),
      }))
      .where('id', '=', itemId)
      .where('list_id', 'in', this.tickableLists(userId).select('todo_lists.id'))
      .returning('list_id')
      .executeTakeFirst();
    return row?.list_id;
  }

  /**
   * Sets done on an item of a list the user may tick, scoped like toggleTickableItem; marking a
   * done item done again keeps who did it first. Its list id, or undefined.
   */
  async markTickableItem(userId: number, itemId: number, done: boolean, now = Date.now()): Promise<number | undefined> {
    const row = await this.db
      .updateTable('todo_items')
      .set((eb) =>
        done
          ? {
              is_done: 1,
              done_by: eb.case().when('is_done', '=', 1).then(eb.ref('done_by')).else(sql<number>`cast(${userId} as integer)`).end(),
              done_at: eb.case().when('is_done', '=', 1).then(eb.ref('done_at')).else(sql<number>`cast(${now} as bigint)`).end(),
            }
          : { is_done: 0, done_by: null, done_at: null },
      )
      .where('id', '=', itemId)
      .where('list_id', 'in', this.tickableLists(userId).select('todo_lists.id'))
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

  /** An item of a list the user owns (the edit and delete pages) with its assignee's name, or undefined. */
  findOwnedItem(userId: number, itemId: number) {
    return this.db
      .selectFrom('todo_items')
      .leftJoin('users as assignee', 'assignee.id', 'todo_items.assignee_id')
      .selectAll('todo_items')
      .select('assignee.username as assignee_name')
      .where('todo_items.id', '=', itemId)
      .where('todo_items.list_id', 'in', this.ownedLists(userId).select('todo_lists.id'))
      .executeTakeFirst();
  }

  /**
   * Changes an item of a list the user owns, in one scoped statement (done or not stays); an
   * assignee who may not read the list is left out, as on insert. Its list id, or undefined.
   */
  async updateOwnedItem(userId: number, itemId: number, listId: number, input: TodoItemInput): Promise<number | undefined> {
    const row = await this.db
      .updateTable('todo_items')
      .set({
        text: input.text,
        due_date: input.due_date,
        assignee_id: input.assignee === null ? null : this.readerNamedQuery(listId, input.assignee),
      })
      .where('id', '=', itemId)
      .where('list_id', '=', listId)
      .where('list_id', 'in', this.ownedLists(userId).select('todo_lists.id'))
      .returning('list_id')
      .executeTakeFirst();
    return row?.list_id;
  }
}

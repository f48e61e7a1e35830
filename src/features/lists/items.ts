import { type AliasableExpression, type Kysely, sql } from 'kysely';
import { lockedForUpdate } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import type { ListAccess } from './access.js';
import type { ItemRow, ItemSpec, ListTables } from './kind.js';

// The statements on items, for every kind: each one statement, scoped through the access
// definitions (a list the user may tick for ticks and new items, one they own for the rest), so
// that what the user may not reach answers like what does not exist.

export type ItemKind<Item extends ItemRow, ItemInput> = ListTables & { items: ItemSpec<Item, ItemInput> };

/** What every item's row holds (ItemRow), on the items table of the enclosing statement. */
function commonColumns(items: string) {
  return [
    sql.ref<number>(`${items}.id`).as('id'),
    sql.ref<number>(`${items}.list_id`).as('list_id'),
    sql.ref<number>(`${items}.is_done`).as('is_done'),
    sql.ref<number>(`${items}.created_at`).as('created_at'),
    sql.ref<number | null>(`${items}.created_by`).as('created_by'),
    sql.ref<number | null>(`${items}.done_by`).as('done_by'),
    sql.ref<number | null>(`${items}.done_at`).as('done_at'),
    sql.ref<string | null>('creator.username').as('created_by_name'),
    sql.ref<string | null>('doer.username').as('done_by_name'),
  ];
}

export function listItems<Item extends ItemRow, ItemInput>(db: Kysely<Database>, kind: ItemKind<Item, ItemInput>, access: ListAccess) {
  const { lists, items } = kind.tables;
  const listId = sql.ref<number>(`${lists}.id`);
  const itemId = sql.ref<number>(`${items}.id`);
  const itemList = sql.ref<number>(`${items}.list_id`);
  const within = (query: ReturnType<ListAccess['visibleLists']>) => query.select(listId.as('id'));
  /** The kind's own columns set when a done item is opened again (ItemSpec.reopened), each kept as it is otherwise. */
  const reopening = () =>
    Object.fromEntries(
      Object.entries(kind.items.reopened?.() ?? {}).map(([column, value]) => [column, sql`case when is_done = 1 then ${value} else ${sql.ref(column)} end`]),
    );

  /** Items with what the pages show of them (Item's columns), of any list: narrow them. */
  const rows = (handle: Kysely<Database> = db) =>
    handle
      .selectFrom(items)
      .leftJoin('users as creator', 'creator.id', `${items}.created_by`)
      .leftJoin('users as doer', 'doer.id', `${items}.done_by`)
      .select([...commonColumns(items), ...kind.items.columns(handle)])
      .$castTo<Item>();

  const statements = {
    rows,

    /** The items of the list of the enclosing statement (its list table's row), in their page's order. */
    ofList: () => rows().where(itemList, '=', listId).orderBy(kind.items.order()),

    /** An item of a list the user may read. */
    findVisible: (userId: number, id: number): Promise<Item | undefined> =>
      rows().where(itemId, '=', id).where(itemList, 'in', within(access.visibleLists(userId))).executeTakeFirst(),

    /** An item of a list the user owns (its edit and delete pages). */
    findOwned: (userId: number, id: number): Promise<Item | undefined> =>
      rows().where(itemId, '=', id).where(itemList, 'in', within(access.ownedLists(userId))).executeTakeFirst(),

    /**
     * Adds an item to a list the user may tick, the check and the insert in one statement; the new
     * item's id, or undefined when the user may not add to such a list.
     */
    async insert(userId: number, listIdValue: number, input: ItemInput, now = Date.now()): Promise<number | undefined> {
      const values: Record<string, AliasableExpression<unknown>> = {
        list_id: listId,
        created_at: sql`cast(${now} as bigint)`,
        created_by: sql`cast(${userId} as integer)`,
        ...kind.items.insert(db, input, { id: listIdValue, ref: listId }),
      };
      const columns = Object.keys(values);
      // The kind's own columns by name (kind.ts): its insert names them for its own table.
      const row = await db
        .insertInto(items)
        .columns(columns as never)
        .expression(access.tickableLists(userId).select(columns.map((column) => values[column]!.as(column)) as never).where(listId, '=', listIdValue))
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    /**
     * Flips an item of a list the user may tick, noting who did it and when (cleared when it is
     * opened again); its list id, or undefined.
     */
    async toggle(userId: number, id: number, now = Date.now()): Promise<number | undefined> {
      const row = await db
        .updateTable(items)
        .set((eb) => ({
          ...reopening(),
          is_done: sql<number>`1 - is_done`,
          done_by: eb.case().when('is_done', '=', 0).then(sql<number>`cast(${userId} as integer)`).else(null).end(),
          done_at: eb.case().when('is_done', '=', 0).then(sql<number>`cast(${now} as bigint)`).else(null).end(),
        }))
        .where('id', '=', id)
        .where('list_id', 'in', within(access.tickableLists(userId)))
        .returning('list_id')
        .executeTakeFirst();
      return row?.list_id;
    },

    /**
     * Sets done on an item of a list the user may tick, scoped like toggle; marking a done item
     * done again keeps who did it first. Its list id, or undefined.
     */
    async mark(userId: number, id: number, done: boolean, now = Date.now()): Promise<number | undefined> {
      const row = await db
        .updateTable(items)
        .set((eb) =>
          done
            ? {
                is_done: 1,
                done_by: eb.case().when('is_done', '=', 1).then(eb.ref('done_by')).else(sql<number>`cast(${userId} as integer)`).end(),
                done_at: eb.case().when('is_done', '=', 1).then(eb.ref('done_at')).else(sql<number>`cast(${now} as bigint)`).end(),
              }
            : { ...reopening(), is_done: 0, done_by: null, done_at: null },
        )
        .where('id', '=', id)
        .where('list_id', 'in', within(access.tickableLists(userId)))
        .returning('list_id')
        .executeTakeFirst();
      return row?.list_id;
    },

    /** Changes an item of a list the user owns (done or not stays); its list id, or undefined. */
    async updateOwned(userId: number, id: number, listIdValue: number, input: ItemInput): Promise<number | undefined> {
      const row = await db
        .updateTable(items)
        // The kind's own columns (kind.ts): its update names them for its own table.
        .set(kind.items.update(db, input, listIdValue) as never)
        .where('id', '=', id)
        .where('list_id', '=', listIdValue)
        .where('list_id', 'in', within(access.ownedLists(userId)))
        .returning('list_id')
        .executeTakeFirst();
      return row?.list_id;
    },

    /** Deletes an item of a list the user owns; its list id, or undefined. */
    async deleteOwned(userId: number, id: number): Promise<number | undefined> {
      const row = await db.deleteFrom(items).where('id', '=', id).where('list_id', 'in', within(access.ownedLists(userId))).returning('list_id').executeTakeFirst();
      return row?.list_id;
    },

    /** Deletes the done (bought) items of a list the user owns; the ids deleted (none when not the owner). */
    async deleteDone(userId: number, listIdValue: number): Promise<number[]> {
      const rows = await db
        .deleteFrom(items)
        .where('list_id', '=', listIdValue)
        .where('is_done', '=', 1)
        .where('list_id', 'in', within(access.ownedLists(userId)))
        .returning('id')
        .execute();
      return rows.map((row) => row.id);
    },

    /** Locks an item of a list the user may tick until the transaction ends (on PostgreSQL); false when there is no such item. */
    async lockTickable(userId: number, id: number): Promise<boolean> {
      const query = db.selectFrom(items).select(itemId.as('id')).where(itemId, '=', id).where(itemList, 'in', within(access.tickableLists(userId)));
      return (await lockedForUpdate(db, query).executeTakeFirst()) !== undefined;
    },
  };
  return statements;
}

export type ListItems<Item extends ItemRow, ItemInput> = ReturnType<typeof listItems<Item, ItemInput>>;

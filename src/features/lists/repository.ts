import { type Kysely, type SqlBool, sql } from 'kysely';
import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import { lockedForUpdate } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import { type AudienceMember, audienceColumn, readAudience } from '../../platform/audience.js';
import { GroupsRepository } from '../groups/index.js';
import { listAccess } from './access.js';
import { listAudience } from './audience.js';
import { listItems } from './items.js';
import type { ItemRow, ListKind, ListRole, ListRow } from './kind.js';
import { type SharedUser, SharesRepository } from './sharing.js';

// The statements on lists, for every kind, each scoped through the access definitions; a kind's
// own columns come from its ListKind. Composed of the access definitions, the item statements and
// the shares, not inherited from them.

/**
 * A list with its owner's name, how many people it is shared with by name (a count, for whoever
 * reads it: the names are its owner's to see) and the kind's own columns.
 */
export type NamedList<List> = List & { owner_name: string; share_count: number };

/** A list with what its page shows. */
export interface ListPageRows<List, Item> {
  list: NamedList<List>;
  /** What the caller may do with it. */
  role: ListRole;
  items: Item[];
  /** Who the list is shared with; empty unless the caller owns it. */
  sharedWith: SharedUser[];
  /** Everyone who may read the list and what each may do (the "who can see this" panel). */
  audience: AudienceMember[];
  /** Who may read the list: the people an item may be given to (kinds whose ListSpec asks for them; else none). */
  readers: { id: number; username: string }[];
}

/** A list of the index: what its card says. */
export interface ListSummary {
  id: number;
  title: string;
  owner_id: number;
  owner_name: string;
  group_name: string | null;
  /** How many users the list is shared with by name. */
  share_count: number;
  /** The kind's summary columns, for its detail line. */
  row: Record<string, unknown>;
}

export function listsRepository<List extends ListRow, Item extends ItemRow, ListInput, ItemInput>(db: Kysely<Database>, kind: ListKind<List, Item, ListInput, ItemInput>) {
  const { lists, items: itemsTable, shares: sharesTable } = kind.tables;
  const access = listAccess(db, kind);
  const items = listItems(db, kind, access);
  const shares = new SharesRepository(db, kind);
  const id = sql.ref<number>(`${lists}.id`);
  const ownerId = sql.ref<number>(`${lists}.owner_id`);
  const updatedAt = sql.ref<number>(`${lists}.updated_at`);

  /** Lists the user may read with their owner's name and the kind's own columns. */
  const visibleNamed = (userId: number) =>
    access
      .visibleLists(userId)
      .innerJoin('users', 'users.id', `${lists}.owner_id`)
      .selectAll(lists)
      .select((eb) => [
        'users.username as owner_name',
        eb.selectFrom(sharesTable).select((c) => c.fn.countAll<number>().as('n')).whereRef(`${sharesTable}.list_id`, '=', `${lists}.id`).as('share_count'),
        ...(kind.list.columns?.(db) ?? []),
      ]);

  /**
   * The people who may read the list (whom an item may be given to): the owner, the shared users
   * and (kinds with groups) the current members of its group are the candidates, each admitted
   * by the read definition itself, in one statement.
   */
  const readersQuery = (listId: number) =>
    db
      .selectFrom('users')
      .where((eb) =>
        eb.or([
          eb('users.id', 'in', db.selectFrom(lists).select(ownerId.as('owner_id')).where(id, '=', listId)),
          eb('users.id', 'in', db.selectFrom(sharesTable).select(`${sharesTable}.user_id`).where(`${sharesTable}.list_id`, '=', listId)),
          ...(kind.group
            ? [
                eb(
                  'users.id',
                  'in',
                  db
                    .selectFrom(lists)
                    .innerJoin('group_members', (join) => join.on(sql<SqlBool>`group_members.group_id = ${sql.ref(`${lists}.group_id`)}`))
                    .select('group_members.user_id')
                    .where(id, '=', listId),
                ),
              ]
            : []),
        ]),
      )
      .where((eb) => eb.exists(access.visibleLists(eb.ref('users.id')).select(id.as('id')).where(id, '=', listId)));

  const repository = {
    db,
    access,
    items,
    shares,
    readersQuery,
    roleOf: access.roleOf,

    /** A list the user may read with its items, and for its owner who it is shared with: one statement for the page. */
    async findVisiblePage(userId: number, listId: number): Promise<ListPageRows<List, Item> | undefined> {
      const row = await visibleNamed(userId)
        .select((eb) => [
          access.roleCase(eb, userId).as('role'),
          jsonRowsFrom(db, items.ofList()).as('items'),
          shares.sharedUsersForOwner(userId).as('shared_with'),
          (kind.list.readers ? jsonRowsFrom(db, readersQuery(listId).select(['users.id', 'users.username']).orderBy('users.username_key')) : sql<unknown>`null`).as('readers'),
          audienceColumn(db, listAudience(db, kind, access, listId)).as('audience'),
        ])
        .where(id, '=', listId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { items: itemRows, shared_with, readers, role, audience, ...list } = row;
      return {
        list: list as unknown as NamedList<List>,
        role,
        items: parseJsonRows<Item>(itemRows),
        sharedWith: parseJsonRows<SharedUser>(shared_with),
        readers: readers === null ? [] : parseJsonRows<{ id: number; username: string }>(readers),
        audience: readAudience(audience),
      };
    },

    /**
     * A page of the lists the user may read, most recently changed first (the index's order),
     * after the list whose [updated_at, id] is `after`, with `more` columns of the kind's; for the
     * API, which pages through them.
     */
    async visibleListsAfter(userId: number, after: readonly [number, number] | null, limit: number): Promise<(NamedList<List> & { sharedWith: SharedUser[] })[]> {
      let query = visibleNamed(userId).select([shares.sharedUsersForOwner(userId).as('shared_with'), ...(kind.list.apiColumns?.(db) ?? [])]);
      if (after) {
        const [updated, last] = after;
        query = query.where((eb) => eb.or([eb(updatedAt, '<', updated), eb.and([eb(updatedAt, '=', updated), eb(id, '<', last)])]));
      }
      const rows = await query.orderBy(updatedAt, 'desc').orderBy(id, 'desc').limit(limit).execute();
      return rows.map(({ shared_with, ...list }) => ({ ...(list as unknown as NamedList<List>), sharedWith: parseJsonRows<SharedUser>(shared_with) }));
    },

    /** Every list the user may read, most recently changed first, with its share count and the kind's summary columns. */
    async summaries(userId: number): Promise<ListSummary[]> {
      const rows = await visibleNamed(userId)
        .select(kind.summary.columns(db))
        .orderBy(updatedAt, 'desc')
        .orderBy(id, 'desc')
        .execute();
      return rows.map((row) => {
        const values = row as unknown as Record<string, unknown>;
        return {
          id: Number(values.id),
          title: String(values.title),
          owner_id: Number(values.owner_id),
          owner_name: String(values.owner_name),
          group_name: (values.group_name as string | null | undefined) ?? null,
          share_count: Number(values.share_count),
          row: values,
        };
      });
    },

    findOwnedList: (userId: number, listId: number): Promise<List | undefined> =>
      access.ownedLists(userId).selectAll(lists).where(id, '=', listId).$castTo<List>().executeTakeFirst(),

    /** Locks the owned list's row until the transaction ends (on PostgreSQL); false when the user owns no such list. */
    async lockOwnedList(userId: number, listId: number): Promise<boolean> {
      const query = access.ownedLists(userId).select(id.as('id')).where(id, '=', listId);
      return (await lockedForUpdate(db, query).executeTakeFirst()) !== undefined;
    },

    async insertList(ownerId: number, input: ListInput, now = Date.now()): Promise<number> {
      const row = await db
        .insertInto(lists)
        // The kind's own columns (kind.ts): typed as its List's, checked against its table there.
        .values({ owner_id: ownerId, created_at: now, updated_at: now, ...kind.list.insertDefaults?.(db, ownerId), ...kind.list.values(input) } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** False when the user owns no such list. */
    async updateOwnedList(userId: number, listId: number, input: ListInput, now = Date.now()): Promise<boolean> {
      const result = await db
        .updateTable(lists)
        .set({ ...kind.list.values(input), updated_at: now } as never)
        .where('id', '=', listId)
        .where('owner_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Deletes the list with its items and shares (ON DELETE CASCADE). False when the user owns no such list. */
    async deleteOwnedList(userId: number, listId: number): Promise<boolean> {
      const result = await db.deleteFrom(lists).where('id', '=', listId).where('owner_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async touchList(listId: number, now = Date.now()): Promise<void> {
      await db.updateTable(lists).set({ updated_at: now }).where('id', '=', listId).execute();
    },

    /** The groups the user may put a list in (kinds with groups). */
    groupChoices: (userId: number) => new GroupsRepository(db).listForMember(userId),

    /** The list's group now, as a subquery (kinds with groups): what a change to its items is recorded under. */
    groupOf: (listId: number) => db.selectFrom(lists).select(sql.ref<number | null>(`${lists}.group_id`).as('group_id')).where(id, '=', listId).$asScalar(),

    /**
     * The owner's lists in the group lose it (kinds with groups), because the owner left it or was
     * removed: the group's members no longer read or tick them; shares by name stay. Their ids.
     */
    async takeOwnedOutOfGroup(ownerId: number, groupId: number): Promise<number[]> {
      if (!kind.group) return [];
      const rows = await db
        .updateTable(lists)
        // Only kinds with groups have the column (kind.ts).
        .set({ group_id: null } as never)
        .where('owner_id', '=', ownerId)
        .where(sql.ref<number | null>(`${lists}.group_id`), '=', groupId)
        .returning('id')
        .execute();
      return rows.map((row) => row.id);
    },

    /** The list's group now, to record a list put into a group; undefined when the user owns no such list. */
    async ownedListGroup(userId: number, listId: number): Promise<number | null | undefined> {
      const row = await access.ownedLists(userId).select(sql.ref<number | null>(`${lists}.group_id`).as('group_id')).where(id, '=', listId).executeTakeFirst();
      return row?.group_id;
    },

    /** How many items the list has, and how many are still open: what every kind's live summary counts. */
    async counts(listId: number): Promise<{ items: number; open: number }> {
      const row = await db
        .selectFrom(itemsTable)
        .select((eb) => [eb.fn.countAll<number | string>().as('items'), eb.fn.sum<number | string | null>('is_done').as('done')])
        .where('list_id', '=', listId)
        .executeTakeFirstOrThrow();
      const all = Number(row.items);
      return { items: all, open: all - Number(row.done ?? 0) };
    },
  };
  return repository;
}

export type ListsRepository<List extends ListRow, Item extends ItemRow, ListInput, ItemInput> = ReturnType<typeof listsRepository<List, Item, ListInput, ItemInput>>;

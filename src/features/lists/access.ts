import { type AliasableExpression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { GroupsRepository } from '../groups/index.js';
import type { ListRole, ListTable, ListTables, UserRef } from './kind.js';

// Who may do what with a list, said once for every kind: every statement of the engine, and every
// other feature asking "may U see this list", goes through these, for a user id or a column of them.

type Lists = ExpressionBuilder<Database, ListTable>;

/** Lists of one kind, as one of the definitions below admits them (select what you need of them). */
export type ListsQuery = SelectQueryBuilder<Database, ListTable, object>;

export interface ListAccess {
  /** The one definition of who may read a list: its owner, its shares, and its group's members (kinds with groups). */
  visibleLists(userId: UserRef): ListsQuery;
  /** The one definition of who may tick and add items: the owner, `tick` shares, the group's members when the group may tick. */
  tickableLists(userId: UserRef): ListsQuery;
  /** The one definition of who may change a list, delete its items and share it: its owner. */
  ownedLists(userId: UserRef): ListsQuery;
  /** The caller's role on the list of the enclosing statement, which must be one they may read. */
  roleCase(eb: Lists, userId: number): AliasableExpression<ListRole>;
  /** What the user may do with the list, in one statement; undefined when they may not see it. */
  roleOf(userId: number, listId: number): Promise<ListRole | undefined>;
}

const listsOf = (db: Kysely<Database>, table: ListTable): ListsQuery => db.selectFrom(table);

function roleCaseOf(eb: Lists, table: ListTable, userId: number, mayTick: (eb: Lists, userId: UserRef) => ReturnType<Lists['or']>): AliasableExpression<ListRole> {
  return eb
    .case()
    .when(`${table}.owner_id`, '=', userId)
    .then(sql.lit<ListRole>('owner'))
    .when(mayTick(eb, userId))
    .then(sql.lit<ListRole>('tick'))
    .else(sql.lit<ListRole>('read'))
    .end();
}

export function listAccess(db: Kysely<Database>, kind: ListTables): ListAccess {
  const { lists, shares } = kind.tables;
  const groups = new GroupsRepository(db);
  const sharedWith = (userId: UserRef) => db.selectFrom(shares).select(`${shares}.list_id`).where(`${shares}.user_id`, '=', userId);
  // Only kinds with groups have these columns; the others never name them.
  const group = sql.ref<number | null>(`${lists}.group_id`);
  const groupPermission = sql.ref<string>(`${lists}.group_permission`);

  const mayRead = (eb: Lists, userId: UserRef) =>
    eb.or([
      eb(`${lists}.owner_id`, '=', userId),
      eb(`${lists}.id`, 'in', sharedWith(userId)),
      ...(kind.group ? [eb(group, 'in', groups.memberGroupIds(userId))] : []),
    ]);
  const mayTick = (eb: Lists, userId: UserRef) =>
    eb.or([
      eb(`${lists}.owner_id`, '=', userId),
      eb(`${lists}.id`, 'in', sharedWith(userId).where(`${shares}.permission`, '=', 'tick')),
      ...(kind.group ? [eb.and([eb(groupPermission, '=', 'tick'), eb(group, 'in', groups.memberGroupIds(userId))])] : []),
    ]);

  const access: ListAccess = {
    visibleLists: (userId) => listsOf(db, lists).where((eb) => mayRead(eb, userId)),
    tickableLists: (userId) => listsOf(db, lists).where((eb) => mayTick(eb, userId)),
    ownedLists: (userId) => listsOf(db, lists).where(`${lists}.owner_id`, '=', userId),
    roleCase: (eb, userId) => roleCaseOf(eb, lists, userId, mayTick),
    async roleOf(userId, listId) {
      const row = await access
        .visibleLists(userId)
        .select((eb) => access.roleCase(eb, userId).as('role'))
        .where(`${lists}.id`, '=', listId)
        .executeTakeFirst();
      return row?.role;
    },
  };
  return access;
}

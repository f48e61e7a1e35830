import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ListRole, UserRef } from './sharing.js';

type ListTable = 'todo_lists' | 'shopping_lists';

/** A kind's access definitions, each for a user id or a column of them (its access.ts). */
export interface ListAccessQueries<T extends ListTable> {
  visibleLists(userId: UserRef): SelectQueryBuilder<Database, T, object>;
  tickableLists(userId: UserRef): SelectQueryBuilder<Database, T, object>;
  ownedLists(userId: UserRef): SelectQueryBuilder<Database, T, object>;
}

/**
 * The role of each of these users on one list, in one query through the kind's own access
 * definitions (so it cannot disagree with the pages); a user missing from the map may not see it.
 */
export async function rolesOn<T extends ListTable>(db: Kysely<Database>, table: T, access: ListAccessQueries<T>, listId: number, userIds: number[]): Promise<Map<number, ListRole>> {
  if (userIds.length === 0) return new Map();
  const user = sql.ref<number>('users.id');
  const rows = await db
    .selectFrom('users')
    .select((eb) => {
      const has = (lists: SelectQueryBuilder<Database, T, object>) => eb.exists(lists.select(sql.lit(1).as('one')).where(sql.ref(`${table}.id`), '=', listId));
      return [
        'users.id',
        eb
          .case()
          .when(has(access.ownedLists(user)))
          .then(sql.lit<ListRole>('owner'))
          .when(has(access.tickableLists(user)))
          .then(sql.lit<ListRole>('tick'))
          .when(has(access.visibleLists(user)))
          .then(sql.lit<ListRole>('read'))
          .else(null)
          .end()
          .as('role'),
      ];
    })
    .where('users.id', 'in', userIds)
    .execute();
  return new Map(rows.filter((row) => row.role !== null).map((row) => [row.id, row.role!]));
}

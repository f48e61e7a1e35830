import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ListAccess, ListsQuery } from './access.js';
import type { ListRole, ListTables } from './kind.js';

/**
 * The role of each of these users on one list, in one statement through the access definitions
 * (so it cannot disagree with the pages); a user missing from the map may not see it.
 */
export async function rolesOn(db: Kysely<Database>, kind: ListTables, access: ListAccess, listId: number, userIds: number[]): Promise<Map<number, ListRole>> {
  if (userIds.length === 0) return new Map();
  const user = sql.ref<number>('users.id');
  const id = sql.ref<number>(`${kind.tables.lists}.id`);
  const rows = await db
    .selectFrom('users')
    .select((eb) => {
      const has = (lists: ListsQuery) => eb.exists(lists.select(sql.lit(1).as('one')).where(id, '=', listId));
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

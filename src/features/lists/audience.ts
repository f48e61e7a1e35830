import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AudienceRules, AudienceVia } from '../../platform/audience.js';
import type { ListAccess, ListsQuery } from './access.js';
import type { ListTable, ListTables } from './kind.js';

// Who can see one list and what each may do, for the "who can see this" panel: its owner, the
// users it is shared with and (kinds with groups) its group's members are the candidates, each
// admitted and ranked by the access definitions themselves (access.ts), so the panel is the
// rules, not a copy of them.

const via = (how: AudienceVia) => sql.lit<AudienceVia>(how).as('via');

export function listAudience(db: Kysely<Database>, kind: ListTables, access: ListAccess, listId: number): AudienceRules<ListTable> {
  const { lists, shares } = kind.tables;
  const id = sql.ref<number>(`${lists}.id`);
  let candidates = db
    .selectFrom(lists)
    .select([sql.ref<number>(`${lists}.owner_id`).as('user_id'), via('owner')])
    .where(id, '=', listId)
    .unionAll(db.selectFrom(shares).select([sql.ref<number>(`${shares}.user_id`).as('user_id'), via('share')]).where(`${shares}.list_id`, '=', listId));
  if (kind.group) {
    candidates = candidates.unionAll(
      db
        .selectFrom(lists)
        .innerJoin('group_members', (join) => join.on(sql<SqlBool>`group_members.group_id = ${sql.ref(`${lists}.group_id`)}`))
        .select(['group_members.user_id', via('group')])
        .where(id, '=', listId),
    );
  }
  const holds = (query: (user: Expression<number>) => ListsQuery) => (user: Expression<number>) => sql<SqlBool>`exists ${query(user).select(id.as('id')).where(id, '=', listId)}`;
  return { candidates, mayRead: holds(access.visibleLists), mayTick: holds(access.tickableLists), mayChange: holds(access.ownedLists) };
}

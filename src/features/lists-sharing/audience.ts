import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AudienceCandidate, AudienceRules, AudienceVia } from '../../platform/audience.js';

/** A candidate's way in, as a column of a candidates query. */
export const via = (how: AudienceVia) => sql.lit<AudienceVia>(how).as('via');

/** One of a list kind's access queries (visibleLists, tickableLists, ownedLists) asked for `user` and narrowed to one list. */
type ListQuery = (user: Expression<number>) => SelectQueryBuilder<Database, keyof Database, object>;

/**
 * Who may read, tick and change one list, by the kind's own access queries (access.ts): each
 * candidate is admitted only if `read` returns the list for them. Both kinds of list use it.
 */
export function listAudience<TB extends keyof Database>(candidates: SelectQueryBuilder<Database, TB, AudienceCandidate>, queries: { read: ListQuery; tick: ListQuery; change: ListQuery }): AudienceRules<TB> {
  const holds = (query: ListQuery) => (user: Expression<number>) => sql<SqlBool>`exists ${query(user)}`;
  return { candidates, mayRead: holds(queries.read), mayTick: holds(queries.tick), mayChange: holds(queries.change) };
}

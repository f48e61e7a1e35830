import { type Expression, type Kysely, PostgresAdapter, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from './schema.js';

/**
 * `column` is one of `values`, as a statement whose text does not change with the number of
 * values: PostgreSQL gets `= any($1)` with one array parameter, so a page of 3 ids and one of 50
 * are the same prepared statement (an `in ($1, ..., $n)` list is a new text, parsed and planned
 * anew, for every length). SQLite has no arrays and keeps `in (...)`; its statements are
 * compiled in-process, where the cost of another text is small.
 */
export function isOneOf<T extends number | string>(db: Pick<Kysely<Database>, 'getExecutor'>, column: Expression<T | null>, values: readonly T[]): RawBuilder<SqlBool> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return sql<SqlBool>`${column} = any(${[...values]})`;
  if (values.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${column} in (${sql.join([...values])})`;
}

import { type Kysely, PostgresAdapter, type RawBuilder } from 'kysely';
import { jsonArrayFrom as postgresJsonArray } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArray } from 'kysely/helpers/sqlite';
import type { Database } from './schema.js';

/**
 * The rows of a (correlated) subquery as one JSON array column, so that a row and its list of
 * children (a note and its tags) come back in one query instead of two. Read it with
 * parseJsonRows: PostgreSQL hands back the array, SQLite its text.
 */
export function jsonRowsFrom<O>(db: Pick<Kysely<Database>, 'getExecutor'>, subquery: Parameters<typeof sqliteJsonArray<O>>[0]): RawBuilder<unknown> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? postgresJsonArray(subquery) : sqliteJsonArray(subquery);
}

export function parseJsonRows<O>(value: unknown): O[] {
  return (typeof value === 'string' ? JSON.parse(value) : value) as O[];
}

import { type Kysely, PostgresAdapter, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * The rows `query` selects, locked until the transaction ends: `for update` on PostgreSQL, where
 * two read-committed transactions could otherwise both read a row before either writes it.
 * SQLite needs nothing: every transaction holds the database's one write lock from its start
 * (BEGIN IMMEDIATE, db/database.ts).
 */
export function forUpdateOnPostgres<TB extends keyof Database, O>(
  db: Kysely<Database>,
  query: SelectQueryBuilder<Database, TB, O>,
): SelectQueryBuilder<Database, TB, O> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate() : query;
}

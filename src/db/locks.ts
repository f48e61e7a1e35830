import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from './schema.js';

/** The key every change that could leave the site without an active administrator takes first. */
export const ADMINISTRATORS_LOCK = 'administrators';

/**
 * Makes transactions that name the same keys take turns until they commit or roll back, so that
 * what one reads and then writes cannot interleave with another's. On PostgreSQL a read-committed
 * transaction does not see another's uncommitted insert: each key takes a transaction-scoped
 * advisory lock (in sorted order, so two transactions never wait for each other). SQLite needs
 * nothing: every transaction holds the database's one write lock from its start (BEGIN
 * IMMEDIATE, database.ts), whichever process runs it.
 */
export async function lockKeys(trx: Kysely<Database>, keys: string[]): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const key of [...new Set(keys)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  }
}

/**
 * The rows a select reads, locked until the transaction ends (`for update` on PostgreSQL), so a
 * check made on them (an If-Match) still holds when the transaction writes. SQLite needs nothing,
 * as above: the transaction already holds the one write lock.
 */
export function lockedForUpdate<Q extends { forUpdate(): Q }>(trx: Kysely<Database>, query: Q): Q {
  return trx.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate() : query;
}

/**
 * Takes the key for the rest of the transaction if no other transaction holds it, without
 * waiting: false when another does (another instance runs the same work now). On PostgreSQL a
 * transaction-scoped advisory lock; SQLite needs nothing, as above: a transaction that got this far
 * holds the one write lock, so no other transaction runs beside it.
 */
export async function tryLockKey(trx: Kysely<Database>, key: string): Promise<boolean> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return true;
  const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtextextended(${key}, 0)) as locked`.execute(trx);
  return rows[0]?.locked === true;
}

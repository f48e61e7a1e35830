/** A PostgreSQL statement waited for a connection of the process's past its bound. */
export class ConnectionWaitTimeout extends Error {
  readonly code = 'CONNECTION_WAIT_TIMEOUT';

  constructor(waitMs: number) {
    super(`no database connection came free within ${waitMs} ms`);
  }
}

/**
 * Codes of a database too busy to answer in time, not of anything in the request: the same
 * request may well succeed a moment later. SQLite: the write lock was not free within its wait
 * (the driver's own bound, sqlite-driver.ts), or a snapshot went stale under a writer.
 * PostgreSQL: no connection came free, too many connections, a lock not available, or a
 * transaction chosen as a deadlock's or serialization's loser.
 */
const BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_LOCKED', 'CONNECTION_WAIT_TIMEOUT', '53300', '55P03', '40001', '40P01']);

/** The database was too busy for the statement (BUSY_CODES): worth a 503 and a retry, not a 500. */
export function isDatabaseBusy(error: unknown): boolean {
  return !!error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' && BUSY_CODES.has(error.code);
}

/** A unique constraint refused the row (SQLite's SQLITE_CONSTRAINT_UNIQUE, PostgreSQL's 23505). */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object' || !('code' in error)) return false;
  return error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === '23505';
}

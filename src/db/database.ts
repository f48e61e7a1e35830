import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
} from 'kysely';
import pg from 'pg';
import { CONNECTION_WAIT_MS } from './pg-pool.js';
import { preparingPool } from './pg-prepared.js';
import { TwoConnectionDriver, WRITE_LOCK_BRIEF_WAIT_MS, WRITE_LOCK_WAIT_MS, openConnection } from './sqlite-driver.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
  /** PostgreSQL: how many statements wait for a connection, in each line (pg-pool.ts). */
  waiting?(): { first: number; second: number };
}

// int8 (COUNT, bigint epoch-millisecond timestamps) as numbers: every value we store fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * An in-memory database (tests of the CLI's parsing and the like) is one connection, which
 * Kysely's driver lends to one caller at a time. Transactions start with BEGIN IMMEDIATE, as on a
 * file (sqlite-driver.ts).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * SQLite has transactional DDL, though Kysely's adapter says otherwise (and its migration lock is
 * a no-op). Saying so makes the migrator run all pending migrations in one (immediate)
 * transaction: a failed migration leaves nothing half-done, and when two instances start
 * together on one file the second waits for the first's transaction, then finds nothing to do.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class OurSqliteDialect extends SqliteDialect {
  constructor(private readonly driver: () => Driver) {
    super({ database: () => Promise.reject(new Error('the driver opens its connections')) });
  }

  override createDriver(): Driver {
    return this.driver();
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

function openSqlite(path: string, writeLockWaitMs: number, briefLockWaitMs: number): DatabaseHandle {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const driver = path === ':memory:' ? () => new ImmediateSqliteDriver({ database: openConnection(path, WRITE_LOCK_WAIT_MS) }) : () => new TwoConnectionDriver(path, writeLockWaitMs, briefLockWaitMs);
  const db = new Kysely<Database>({ dialect: new OurSqliteDialect(driver) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * Each connection's settings, sent when it opens (a setting in DATABASE_URL's own `options`
 * wins).
 * - A commit does not wait for its WAL flush (`synchronous_commit=off`), the promise SQLite's
 *   `synchronous = NORMAL` makes: a crash of the machine or of PostgreSQL may lose the last
 *   commits (at most three `wal_writer_delay`s, 0.6 s by default), never corrupts anything. Every
 *   note write takes its group's row (the view versions, migration 0007) until it commits, so one
 *   flush that stalled held up every writer of the group behind it (docs/performance.md).
 */
const CONNECTION_OPTIONS = '-c synchronous_commit=off';

function openPostgres(url: string, poolSize: number, connectionWaitMs: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, options: CONNECTION_OPTIONS });
  const preparing = preparingPool(pool, poolSize, connectionWaitMs);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparing }) });
  return { db, dialect: 'postgres', close: () => db.destroy(), waiting: () => preparing.lanes.waiting };
}

/** The path a `sqlite:<path>` URL names (`:memory:` too); undefined for any other database. */
function sqlitePath(url: string): string | undefined {
  return url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : undefined;
}

/** The file a `sqlite:<path>` URL names; undefined for any other database (or `:memory:`). */
export function sqliteFile(url: string): string | undefined {
  const path = sqlitePath(url);
  return path === ':memory:' ? undefined : path;
}

/**
 * Opens `sqlite:<path>` (WAL, foreign keys on) or `postgres://...` behind one Kysely type.
 * `writeLockWaitMs`: how long a SQLite write waits for the lock before it fails, the first
 * `briefLockWaitMs` of it inside SQLite; `connectionWaitMs`: how long a PostgreSQL statement
 * waits for a connection (tests change all three).
 */
export function openDatabase(
  url: string,
  { poolSize = 10, writeLockWaitMs = WRITE_LOCK_WAIT_MS, briefLockWaitMs = WRITE_LOCK_BRIEF_WAIT_MS, connectionWaitMs = CONNECTION_WAIT_MS } = {},
): DatabaseHandle {
  const path = sqlitePath(url);
  return path === undefined ? openPostgres(url, poolSize, connectionWaitMs) : openSqlite(path, writeLockWaitMs, briefLockWaitMs);
}

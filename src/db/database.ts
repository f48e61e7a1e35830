import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
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
import { preparingPool } from './pg-prepared.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
  /** PostgreSQL: how many statements wait for a connection, in each line (pg-lanes.ts). */
  waiting?(): { first: number; second: number };
}

// int8 (COUNT, bigint epoch-millisecond timestamps) as numbers: every value we store fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew; compiling the same SQL again is most of the
 * cost of a small query. Prepared statements are kept by SQL text (bounded, oldest out first).
 * Safe because better-sqlite3 runs each statement to completion before the next one starts.
 */
function cacheStatements(sqlite: SQLite.Database): void {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  }) as SQLite.Database['prepare'];
}

/**
 * Transactions start with BEGIN IMMEDIATE: the write lock is taken at the start (waiting up to
 * busy_timeout for another process, e.g. a second instance or a CLI command) instead of at the
 * first write, where SQLite would fail at once with SQLITE_BUSY because the transaction's
 * snapshot is already stale.
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

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver({ database: this.sqlite });
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

function openSqlite(path: string): DatabaseHandle {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  cacheStatements(sqlite);
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect(sqlite) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * Each connection's settings, sent when it opens (a setting in DATABASE_URL's own `options`
 * wins).
 * - No parallel workers: every statement here is a short index read, and a parallel plan (which
 *   the search's tiers were given) spends a few milliseconds starting its workers, and takes the
 *   cores other requests are waiting for, to save less than that.
 * - A commit does not wait for its WAL flush (`synchronous_commit=off`), the promise SQLite's
 *   `synchronous = NORMAL` makes: a crash of the machine or of PostgreSQL may lose the last
 *   commits (at most three `wal_writer_delay`s, 0.6 s by default), never corrupts anything. Every
 *   note write takes its group's row (the view versions, migration 0007) until it commits, so one
 *   flush that stalled held up every writer of the group behind it (README, design notes).
 */
const CONNECTION_OPTIONS = '-c max_parallel_workers_per_gather=0 -c synchronous_commit=off';

function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, options: CONNECTION_OPTIONS });
  const preparing = preparingPool(pool, poolSize);
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

/** Opens `sqlite:<path>` (WAL, foreign keys on) or `postgres://...` behind one Kysely type. */
export function openDatabase(url: string, { poolSize = 10 } = {}): DatabaseHandle {
  const path = sqlitePath(url);
  return path === undefined ? openPostgres(url, poolSize) : openSqlite(path);
}

import { closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
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
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * A value that is the same on two reads only if nothing in the database changed in between,
   * whoever changed it (this process, another worker, another instance, a CLI command); null
   * where the database cannot tell cheaply (PostgreSQL).
   */
  changeToken: (() => string) | null;
  close(): Promise<void>;
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

/**
 * SQLite counts changes for us: `PRAGMA data_version` moves when another connection (another
 * worker or process) commits, and total_changes() counts every row this connection inserted,
 * updated or deleted, foreign-key actions and trigger writes included. Used where there is no
 * wal-index to read (an in-memory database).
 */
function pragmaChangeToken(sqlite: SQLite.Database): () => string {
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const totalChanges = sqlite.prepare('select total_changes()').pluck();
  return () => `${String(dataVersion.get())}.${String(totalChanges.get())}`;
}

/** The first of the two copies of the wal-index header (https://www.sqlite.org/walformat.html). */
const WAL_INDEX_HEADER_BYTES = 48;

/**
 * The change token of a database in WAL mode, read from the wal-index header at the start of its
 * `-shm` file. Every commit, by any connection in any process, publishes itself there (its
 * `iChange` counts transactions; the frame count and checksums move too), and every reader takes
 * its snapshot from that header: if the header is the same, so is what a query would read. The
 * writer fills the second copy first and this first copy last, so a commit shows here once it
 * is visible to readers. One pread of 48 bytes: `PRAGMA data_version` opened a read transaction
 * for the same answer (two fcntl locks and SQLite's snapshot set-up), about a fifth of the CPU
 * time of a page kept in memory.
 */
function walIndexChangeToken(sqlite: SQLite.Database): { read(): string; close(): void } | null {
  if (sqlite.memory || sqlite.pragma('journal_mode', { simple: true }) !== 'wal') return null;
  // The -shm file exists once a connection has read from the database in WAL mode.
  sqlite.prepare('select count(*) from sqlite_master').get();
  let fd: number;
  try {
    fd = openSync(`${resolve(sqlite.name)}-shm`, 'r');
  } catch {
    return null;
  }
  let header = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let previous = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let token = '';
  return {
    read() {
      [header, previous] = [previous, header];
      readSync(fd, header, 0, WAL_INDEX_HEADER_BYTES, 0);
      // Unchanged (nearly always): the same string again, not a new one per request.
      if (token === '' || !header.equals(previous)) token = header.toString('latin1');
      return token;
    },
    close: () => closeSync(fd),
  };
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
  const walIndex = walIndexChangeToken(sqlite);
  return {
    db,
    dialect: 'sqlite',
    changeToken: walIndex ? walIndex.read : pragmaChangeToken(sqlite),
    async close() {
      await db.destroy();
      walIndex?.close();
    },
  };
}

function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', changeToken: null, close: () => db.destroy() };
}

/** Opens `sqlite:<path>` (WAL, foreign keys on) or `postgres://...` behind one Kysely type. */
export function openDatabase(url: string, { poolSize = 10 } = {}): DatabaseHandle {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  return openPostgres(url, poolSize);
}

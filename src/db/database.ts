import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

// int8 (COUNT, bigint epoch-millisecond timestamps) as numbers: every value we store fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh, and preparing was about 8% of the CPU time of GET /notes/.
 * better-sqlite3 statements are reusable, so they are cached by SQL text. Kysely runs one query
 * at a time on its single SQLite connection, so a cached statement is never in use twice.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

function openSqlite(path: string): DatabaseHandle {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/** Opens `sqlite:<path>` (WAL, foreign keys on) or `postgres://...` behind one Kysely type. */
export function openDatabase(url: string, { poolSize = 10 } = {}): DatabaseHandle {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  return openPostgres(url, poolSize);
}

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely, Migration } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Database } from '../src/db/schema.js';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** The PostgreSQL server to test against, when DATABASE_URL names one (CI's second run). */
export function postgresBaseUrl(): string | undefined {
  const url = process.env.DATABASE_URL;
  return url && /^postgres(ql)?:\/\//.test(url) ? url : undefined;
}

/**
 * A database of its own for one app under test: a new SQLite file, or a new PostgreSQL
 * database created from DATABASE_URL's server and dropped afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = postgresBaseUrl();
  if (!base) {
    const dir = mkdtempSync(join(tmpdir(), 'groupnotes-test-'));
    return { url: `sqlite:${join(dir, 'db.sqlite3')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `groupnotes_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        // pg's Pool.end() resolves before its connections have closed; forcing the drop while
        // they close kills them with an error nobody is listening for. Wait for them first.
        for (let waited = 0; waited < 5000; waited += 50) {
          const { rows } = await client.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if (rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A migrated database of its own for each test of the file (all migrations, or those given):
 * registers the beforeEach that makes it and hands it to `use`, and the afterEach that drops it.
 */
export function freshDatabaseForEachTest(use: (db: Kysely<Database>) => void, migrationSet?: Record<string, Migration>): void {
  let scratch: TestDatabase;
  let database: DatabaseHandle;
  beforeEach(async () => {
    scratch = await createTestDatabase();
    database = openDatabase(scratch.url, { poolSize: 1 });
    await migrateToLatest(database.db, migrationSet);
    use(database.db);
  });
  afterEach(async () => {
    await database.close();
    await scratch.drop();
  });
}

// One of two processes migrating the same database at the same moment (src/db/migrate.test.ts).
// Usage: node --import tsx test/migrate-worker.ts <DATABASE_URL>; prints "ready", waits for a
// line on stdin, migrates, prints one JSON line { applied, error, startedAt, finishedAt }.
import { createInterface } from 'node:readline';
import { type Kysely, type Migration, sql } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { migrations } from '../src/db/migrations/index.js';

/** Every real migration, each also writing a row when (and as often as) it is applied. */
function probedMigrations(): Record<string, Migration> {
  const probed: Record<string, Migration> = {
    '0000_probe': {
      async up(db: Kysely<unknown>) {
        await sql`create table migration_probe (name varchar(100) not null, pid integer not null)`.execute(db);
        await sql`insert into migration_probe (name, pid) values ('0000_probe', ${process.pid})`.execute(db);
        // Holds the lock long enough for the other process to be certainly waiting on it.
        await new Promise((resolve) => setTimeout(resolve, 400));
      },
    },
  };
  for (const [name, migration] of Object.entries(migrations)) {
    probed[name] = {
      async up(db: Kysely<unknown>) {
        await migration.up(db);
        await sql`insert into migration_probe (name, pid) values (${name}, ${process.pid})`.execute(db);
      },
    };
  }
  return probed;
}

const [url] = process.argv.slice(2);
if (!url) throw new Error('usage: migrate-worker.ts <DATABASE_URL>');
const database = openDatabase(url, { poolSize: 1 });
await sql`select 1`.execute(database.db);
console.log('ready');
const input = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => input.once('line', () => resolve()));
input.close();
const startedAt = Date.now();
let applied: string[] = [];
let error: string | null = null;
try {
  applied = (await migrateToLatest(database.db, probedMigrations())).map((result) => result.migrationName);
} catch (failure) {
  error = failure instanceof Error ? failure.message : String(failure);
}
console.log(JSON.stringify({ applied, error, startedAt, finishedAt: Date.now() }));
await database.close();

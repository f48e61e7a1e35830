import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../src/db/database.js';
import type { Database } from '../src/db/schema.js';

const BATCH = 500;

/** Many rows as multi-row inserts of BATCH rows (5,500 parameters for a note: under both databases' limits). */
export async function insertInBatches<T extends keyof Database & string>(db: Kysely<Database>, table: T, rows: Record<string, unknown>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    await db.insertInto(table).values(rows.slice(start, start + BATCH) as never).execute();
  }
}

/**
 * Runs `load` (inside the transaction `trx`) with the indexes and triggers of the notes set aside,
 * then makes them again from their own definitions, read from the database: building an index
 * once over 150,000 notes is several times faster than keeping it (and the full-text index) up
 * to date row by row, and the schema ends exactly as the migrations left it. SQLite's full-text
 * index (notes_fts), fed by triggers, is rebuilt from the table.
 */
export async function withNoteIndexesAside(trx: Kysely<Database>, dialect: Dialect, load: () => Promise<void>): Promise<void> {
  const definitions =
    dialect === 'postgres'
      ? (
          await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition from pg_indexes
            where schemaname = current_schema() and tablename = 'notes'
            and indexname not in (select conname from pg_constraint)`.execute(trx)
        ).rows.map((row) => ({ ...row, kind: 'index' }))
      : (
          await sql<{ name: string; definition: string; kind: string }>`select name, sql as definition, type as kind from sqlite_master
            where tbl_name = 'notes' and type in ('index', 'trigger') and sql is not null`.execute(trx)
        ).rows;
  for (const { name, kind } of definitions) await sql`drop ${sql.raw(kind)} ${sql.id(name)}`.execute(trx);
  await load();
  for (const { definition } of definitions) await sql.raw(definition).execute(trx);
  if (dialect === 'sqlite') await sql`insert into notes_fts(notes_fts) values ('rebuild')`.execute(trx);
}

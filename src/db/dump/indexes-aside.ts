import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.js';
import type { AnyTables } from './tables.js';

/**
 * Runs `load` (inside the transaction `trx`) with the tables' plain indexes and triggers set aside
 * (PostgreSQL's disabled, SQLite's dropped), then makes them again from their own definitions,
 * read from the database: building an index once over a million notes is several times faster
 * than keeping it (and the full-text index) up to date row by row, and the schema ends exactly as
 * the migrations left it. Unique indexes stay, so a duplicate is refused as it is inserted. The
 * triggers keep the view versions (0007, 0015), which a load starts afresh, and on SQLite the
 * full-text index and the name keys' checks (a dump carries the keys). Kept row by row,
 * each note of a load moved its owner's version: 150,000 updates of one user's row in one
 * transaction took PostgreSQL twenty minutes. SQLite's full-text index (notes_fts) is rebuilt
 * from the notes table.
 */
export async function withIndexesAside(trx: Kysely<AnyTables>, dialect: Dialect, tables: readonly string[], load: () => Promise<void>): Promise<void> {
  if (tables.length === 0) return load();
  const definitions =
    dialect === 'postgres'
      ? (
          await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition from pg_indexes
            where schemaname = current_schema() and tablename in (${sql.join(tables)})
            and indexname not in (select conname from pg_constraint)`.execute(trx)
        ).rows.map((row) => ({ ...row, kind: 'index' }))
      : (
          await sql<{ name: string; definition: string; kind: string }>`select name, sql as definition, type as kind from sqlite_master
            where tbl_name in (${sql.join(tables)}) and type in ('index', 'trigger') and sql is not null`.execute(trx)
        ).rows;
  const aside = definitions.filter((definition) => !/^create unique index/i.test(definition.definition));
  for (const { name, kind } of aside) await sql`drop ${sql.raw(kind)} ${sql.id(name)}`.execute(trx);
  const triggers = async (state: 'enable' | 'disable') => {
    if (dialect !== 'postgres') return;
    for (const table of tables) await sql`alter table ${sql.table(table)} ${sql.raw(state)} trigger user`.execute(trx);
  };
  await triggers('disable');
  await load();
  for (const { definition } of aside) await sql.raw(definition).execute(trx);
  await triggers('enable');
  if (dialect === 'sqlite' && tables.includes('notes')) await sql`insert into notes_fts(notes_fts) values ('rebuild')`.execute(trx);
}

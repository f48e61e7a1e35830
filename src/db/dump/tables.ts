import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.js';
import type { Database } from '../schema.js';

/** Every table, seen as rows of named values: a dump names its tables at run time. */
export type AnyTables = Record<string, Record<string, unknown>>;

/** The database as the dump code sees it: tables named at run time. */
export function anyTables(db: Kysely<Database>): Kysely<AnyTables> {
  return db as unknown as Kysely<AnyTables>;
}

/** A column as a dump carries it: every value is an integer, a text or null. */
export interface DumpColumn {
  name: string;
  kind: 'integer' | 'text';
  nullable: boolean;
}

export interface DumpTable {
  name: string;
  columns: DumpColumn[];
  /** The primary key's columns, in key order: rows are dumped in this order. */
  key: string[];
  /** Each column that refers to another table's column. */
  references: { column: string; table: string; to: string }[];
}

/**
 * Tables that hold no data of anybody's: sessions (a dump must not carry credentials, and a
 * loaded database starts signed out), failed-login counts, and mail waiting to be sent (reset
 * links). SQLite's full-text index tables are rebuilt by their triggers as notes are loaded.
 */
const LEFT_OUT_TABLES = new Set(['sessions', 'login_failures', 'mail_outbox']);

/**
 * Columns worked out from the others (migration 0007's view versions; PostgreSQL's generated
 * search vector is skipped as generated): a dump would otherwise differ between two databases
 * holding the same data.
 */
export const DERIVED_COLUMNS = new Set(['view_version']);

interface RawColumn {
  table: string;
  name: string;
  type: string;
  nullable: boolean;
  key: number;
}

interface RawReference {
  table: string;
  column: string;
  to_table: string;
  to_column: string;
}

async function sqliteSchema(db: Kysely<AnyTables>): Promise<{ tables: string[]; columns: RawColumn[]; references: RawReference[] }> {
  const { rows: tables } = await sql<{ name: string }>`
    select name from pragma_table_list where schema = 'main' and type = 'table'
      and name not like 'sqlite\\_%' escape '\\' and name not like 'kysely\\_%' escape '\\'
    order by name`.execute(db);
  const columns: RawColumn[] = [];
  const references: RawReference[] = [];
  for (const { name } of tables) {
    const info = await sql<{ name: string; type: string; notnull: number; pk: number }>`select name, type, "notnull", pk from pragma_table_info(${name}) order by cid`.execute(db);
    for (const column of info.rows) columns.push({ table: name, name: column.name, type: column.type, nullable: column.notnull === 0 && column.pk === 0, key: column.pk });
    const keys = await sql<{ from: string; table: string; to: string }>`select "from", "table", "to" from pragma_foreign_key_list(${name})`.execute(db);
    for (const key of keys.rows) references.push({ table: name, column: key.from, to_table: key.table, to_column: key.to });
  }
  // Virtual tables (the notes' full-text index) and their shadow tables are not data.
  const names = tables.map((table) => table.name).filter((name) => !/^notes_fts(_|$)/.test(name));
  return { tables: names, columns, references };
}

async function postgresSchema(db: Kysely<AnyTables>): Promise<{ tables: string[]; columns: RawColumn[]; references: RawReference[] }> {
  const { rows: tables } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and c.relname not like 'kysely\\_%' escape '\\'
    order by c.relname`.execute(db);
  const { rows: columns } = await sql<RawColumn>`
    select c.relname as "table", a.attname as name, format_type(a.atttypid, null) as type, not a.attnotnull as nullable,
      coalesce(array_position(p.conkey, a.attnum), 0) as key
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_constraint p on p.conrelid = c.oid and p.contype = 'p'
    where n.nspname = current_schema() and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
    order by c.relname, a.attnum`.execute(db);
  const { rows: references } = await sql<RawReference>`
    select c.relname as "table", a.attname as "column", rc.relname as to_table, ra.attname as to_column
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
    join pg_class rc on rc.oid = k.confrelid
    join pg_attribute ra on ra.attrelid = k.confrelid and ra.attnum = k.confkey[1]
    where n.nspname = current_schema() and k.contype = 'f'`.execute(db);
  return { tables: tables.map((table) => table.name), columns, references };
}

function kindOf(table: string, column: string, type: string): DumpColumn['kind'] {
  if (/int/i.test(type)) return 'integer';
  if (/char|text/i.test(type)) return 'text';
  throw new Error(`column ${table}.${column} has type ${type}, which a dump cannot carry`);
}

/**
 * The tables a dump carries, read from the database itself (so a new migration's table is
 * dumped without a change here), parents before children: loading in this order meets every
 * reference to a row already loaded.
 */
export async function dumpTables(db: Kysely<AnyTables>, dialect: Dialect): Promise<DumpTable[]> {
  const schema = dialect === 'postgres' ? await postgresSchema(db) : await sqliteSchema(db);
  const byName = new Map<string, DumpTable>();
  for (const name of schema.tables) {
    if (LEFT_OUT_TABLES.has(name)) continue;
    const columns = schema.columns.filter((column) => column.table === name);
    byName.set(name, {
      name,
      columns: columns
        .filter((column) => !DERIVED_COLUMNS.has(column.name))
        .map((column) => ({ name: column.name, kind: kindOf(name, column.name, column.type), nullable: column.nullable && column.key === 0 })),
      key: columns.filter((column) => column.key > 0).sort((a, b) => a.key - b.key).map((column) => column.name),
      references: schema.references
        .filter((reference) => reference.table === name)
        .map((reference) => ({ column: reference.column, table: reference.to_table, to: reference.to_column }))
        // Each database lists them in its own order; the dump's table order must not depend on it.
        .sort((a, b) => a.column.localeCompare(b.column)),
    });
  }
  const ordered: DumpTable[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (table: DumpTable): void => {
    if (placed.has(table.name)) return;
    if (visiting.has(table.name)) throw new Error(`tables refer to each other in a cycle through ${table.name}`);
    visiting.add(table.name);
    for (const reference of table.references) {
      const parent = byName.get(reference.table);
      if (parent && parent !== table) place(parent);
    }
    visiting.delete(table.name);
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of [...byName.values()].sort((a, b) => a.name.localeCompare(b.name))) place(table);
  for (const table of ordered) {
    if (table.key.length === 0) throw new Error(`table ${table.name} has no primary key to dump it in order`);
  }
  return ordered;
}

/** Tables left out of a dump but emptied by a replacing load (they name users of the old data). */
export function leftOutTables(): string[] {
  return [...LEFT_OUT_TABLES];
}

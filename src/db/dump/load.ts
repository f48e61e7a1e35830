import { type Kysely, type Transaction, sql } from 'kysely';
import type { Dialect } from '../database.js';
import { DUMP_FORMAT, DUMP_VERSION, type DumpHeader, currentSchema } from './dump.js';
import type { Database } from '../schema.js';
import { withIndexesAside } from './indexes-aside.js';
import { type AnyTables, type DumpTable, anyTables, dumpTables, leftOutTables } from './tables.js';

/** A dump that cannot be loaded: the message says what is wrong and where; nothing was stored. */
export class DumpError extends Error {}

export interface LoadOptions {
  /** Empty a database that holds data first (else such a database is refused). */
  replace?: boolean;
  /** Told after each stored batch: the table and its rows stored so far. */
  progress?: (table: string, rows: number) => void;
}

/** At most this many values in one INSERT (SQLite allows 32,766 parameters, PostgreSQL 65,535). */
const VALUES_PER_INSERT = 30_000;
const MAX_ROWS_PER_INSERT = 1000;

interface TableState {
  table: DumpTable;
  /** The dump's column order mapped onto the table's columns. */
  positions: number[];
  batch: Record<string, unknown>[];
  firstEntry: number;
  stored: number;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/**
 * Reads a dump (dump.ts's layout, a line at a time) into the database in one transaction: an
 * error, on whatever line, leaves the database as it was. Rows keep their ids; every reference is
 * checked against the rows loaded before it, so a dangling one is named by line and field rather
 * than by the database's constraint message.
 */
export async function loadDump(db: Kysely<Database>, dialect: Dialect, lines: AsyncIterable<string>, options: LoadOptions = {}): Promise<{ tables: number; rows: number }> {
  const iterator = lines[Symbol.asyncIterator]();
  let lineNumber = 0;
  const next = async (): Promise<string | undefined> => {
    const result = await iterator.next();
    if (result.done) return undefined;
    lineNumber += 1;
    return result.value;
  };
  const fail = (message: string): never => {
    throw new DumpError(`line ${lineNumber}: ${message}`);
  };

  const first = await next();
  if (first === undefined) throw new DumpError('the file is empty');
  let header: DumpHeader | undefined;
  try {
    header = first.endsWith('"tables":[') ? (JSON.parse(`${first}]}`) as DumpHeader) : undefined;
  } catch {
    header = undefined;
  }
  if (!header || header.format !== DUMP_FORMAT) fail('not a groupnotes dump (written by "groupnotes dumpdata")');
  if (header!.version !== DUMP_VERSION) fail(`the dump is of format version ${JSON.stringify(header!.version)}; this groupnotes reads version ${DUMP_VERSION}`);
  if (header!.schema !== currentSchema()) {
    fail(`the dump was written at schema ${JSON.stringify(header!.schema)} and this groupnotes is at ${currentSchema()}: load it with the version that wrote it, then upgrade`);
  }

  return anyTables(db).transaction().execute(async (trx) => {
    const tables = await dumpTables(trx, dialect);
    const byName = new Map(tables.map((table) => [table.name, table]));
    await emptyOrRefuse(trx, tables, options.replace === true);
    // View versions are worked out afterwards, once; PostgreSQL's per-row triggers that move them
    // would otherwise update the same user row for each of their notes.
    if (dialect === 'postgres') for (const table of tables) await sql`alter table ${sql.table(table.name)} disable trigger user`.execute(trx);

    // The values that other tables refer to, per "table.column", as they are loaded.
    const referenced = new Map<string, Set<unknown>>();
    for (const table of tables) for (const reference of table.references) referenced.set(`${reference.table}.${reference.to}`, new Set());

    const seen = new Set<string>();
    let entries = 0;
    let current: TableState | undefined;
    let ended = false;

    const flush = async (state: TableState): Promise<void> => {
      if (state.batch.length === 0) return;
      try {
        await trx.insertInto(state.table.name).values(state.batch).execute();
      } catch (error) {
        const last = state.firstEntry + state.batch.length - 1;
        throw new DumpError(`entries ${state.firstEntry}-${last} (${state.table.name}): the database refused them: ${(error as Error).message}`);
      }
      state.stored += state.batch.length;
      state.batch = [];
      options.progress?.(state.table.name, state.stored);
    };

    // Plain indexes are built once at the end, SQLite's triggers (full-text index, view versions) too.
    await withIndexesAside(trx, dialect, tables.map((table) => table.name), async () => {
      for (let line = await next(); line !== undefined; line = await next()) {
        if (ended) {
          if (line.trim() !== '') fail('text after the end of the dump');
          continue;
        }
        if (current) {
          if (line === ']}') {
            await flush(current);
            current = undefined;
            continue;
          }
          const text = current.stored + current.batch.length === 0 ? line : line.startsWith(',') ? line.slice(1) : fail(`expected "," before a row of ${current.table.name}`);
          let row: unknown;
          try {
            row = JSON.parse(text);
          } catch {
            fail(`not a complete row of ${current.table.name} (is the file truncated?)`);
          }
          entries += 1;
          const record = checkRow(row, current, referenced, (message) => fail(`entry ${entries} (${current!.table.name}${message.field ? `, field ${message.field}` : ''}): ${message.text}`));
          if (current.batch.length === 0) current.firstEntry = entries;
          current.batch.push(record);
          if (current.batch.length >= Math.min(MAX_ROWS_PER_INSERT, Math.floor(VALUES_PER_INSERT / current.table.columns.length))) await flush(current);
          continue;
        }
        if (line === ']}') {
          ended = true;
          continue;
        }
        const opening = seen.size === 0 ? line : line.startsWith(',') ? line.slice(1) : fail('expected "," before the next table');
        let start: { table?: unknown; columns?: unknown } | undefined;
        try {
          start = opening.endsWith('"rows":[') ? (JSON.parse(`${opening}]}`) as typeof start) : undefined;
        } catch {
          start = undefined;
        }
        if (!start || typeof start.table !== 'string' || !Array.isArray(start.columns)) fail('not the start of a table (is the file truncated?)');
        const table = byName.get(start!.table as string) ?? fail(`this database has no table ${JSON.stringify(start!.table)}`);
        if (seen.has(table.name)) fail(`table ${table.name} appears twice`);
        seen.add(table.name);
        const columns = start!.columns as unknown[];
        const expected = table.columns.map((column) => column.name);
        if (columns.length !== expected.length || expected.some((name) => !columns.includes(name))) {
          fail(`table ${table.name} has columns ${JSON.stringify(columns)}; this database's are ${JSON.stringify(expected)}`);
        }
        current = { table, positions: expected.map((name) => columns.indexOf(name)), batch: [], firstEntry: entries + 1, stored: 0 };
      }
      if (current) fail(`the file ends inside table ${current.table.name}: it is truncated`);
      if (!ended) fail('the file ends before the end of the dump: it is truncated');
      const missing = tables.find((table) => !seen.has(table.name));
      if (missing) fail(`the dump has no table ${missing.name}`);
    });

    if (dialect === 'postgres') {
      for (const table of tables) await sql`alter table ${sql.table(table.name)} enable trigger user`.execute(trx);
      for (const table of tables.filter((table) => table.key.length === 1 && table.key[0] === 'id')) {
        // The next id after the loaded ones (identity columns count from their own sequence).
        await sql`select setval(pg_get_serial_sequence(${table.name}, 'id'), coalesce((select max(id) from ${sql.table(table.name)}), 0) + 1, false)`.execute(trx);
      }
    }
    await stampViewVersions(trx);
    return { tables: seen.size, rows: entries };
  });
}

function checkRow(
  row: unknown,
  state: TableState,
  referenced: Map<string, Set<unknown>>,
  fail: (message: { field?: string; text: string }) => never,
): Record<string, unknown> {
  const { table, positions } = state;
  if (!Array.isArray(row)) return fail({ text: `expected a list of ${table.columns.length} values, got ${typeName(row)}` });
  if (row.length !== table.columns.length) return fail({ text: `expected ${table.columns.length} values, got ${row.length}` });
  const record: Record<string, unknown> = {};
  for (const [index, column] of table.columns.entries()) {
    const value: unknown = row[positions[index]!];
    if (value === null) {
      if (!column.nullable) fail({ field: column.name, text: 'must not be null' });
    } else if (column.kind === 'integer' ? !Number.isSafeInteger(value) : typeof value !== 'string') {
      fail({ field: column.name, text: `expected ${column.kind === 'integer' ? 'an integer' : 'a text'}, got ${typeName(value)}` });
    }
    record[column.name] = value;
  }
  for (const reference of table.references) {
    const value = record[reference.column];
    if (value !== null && value !== undefined && !referenced.get(`${reference.table}.${reference.to}`)!.has(value)) {
      fail({ field: reference.column, text: `refers to ${reference.table} ${reference.to} ${JSON.stringify(value)}, which is not in the dump before it` });
    }
  }
  for (const column of table.columns) referenced.get(`${table.name}.${column.name}`)?.add(record[column.name]);
  return record;
}

async function emptyOrRefuse(trx: Transaction<AnyTables>, tables: DumpTable[], replace: boolean): Promise<void> {
  for (const table of tables) {
    const row = await trx.selectFrom(table.name).select(sql`1`.as('one')).limit(1).executeTakeFirst();
    if (!row) continue;
    if (!replace) throw new DumpError(`the database already holds data (table ${table.name}); load with --replace to delete it all first`);
    break;
  }
  if (!replace) return;
  // Children first; sessions and the like go too, as they name the users being replaced.
  for (const name of leftOutTables()) await trx.deleteFrom(name).execute();
  for (const table of [...tables].reverse()) await trx.deleteFrom(table.name).execute();
}

/**
 * Every loaded row gets one new view version, unlike each it may have had in this database
 * before: a running instance's kept pages (platform/views/page-cache.ts) cannot be taken for
 * pages of the loaded data.
 */
async function stampViewVersions(trx: Transaction<AnyTables>): Promise<void> {
  const stamp = Math.floor(Date.now() / 1000) % 2_000_000_000;
  // The tables that migration 0007 gave a view version.
  for (const table of ['users', 'groups', 'notes']) {
    await trx.updateTable(table).set({ view_version: stamp }).execute();
  }
}

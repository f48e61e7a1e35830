import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.js';
import { migrations } from '../migrations/index.js';
import type { Database } from '../schema.js';
import { type AnyTables, type DumpTable, anyTables, dumpTables } from './tables.js';

export const DUMP_FORMAT = 'groupnotes-dump';
export const DUMP_VERSION = 1;

/** The schema a dump was written at: the newest migration of this build. */
export function currentSchema(): string {
  return Object.keys(migrations).at(-1)!;
}

/**
 * A dump is one JSON document, written a row per line so that it can be read back a line at a
 * time in bounded memory, whatever its size:
 *
 *     {"format":"groupnotes-dump","version":1,"schema":"0014_notifications","tables":[
 *     {"table":"users","columns":["id","username",...],"rows":[
 *     [1,"alice",...]
 *     ,[2,"bob",...]
 *     ]}
 *     ,{"table":"groups",...,"rows":[
 *     ]}
 *     ]}
 *
 * Nothing in it depends on when or from which database it was written, so two dumps of the same
 * data are the same bytes.
 */
export interface DumpHeader {
  format: string;
  version: number;
  schema: string;
}

/** Told how far the dump has got: rows of the current table written, and the table's count. */
export type DumpProgress = (table: string, done: number, total: number) => void;

/** Where a dump goes: resolves once the text may be written again (back-pressure). */
export type DumpSink = (text: string) => Promise<void>;

const PAGE_ROWS = 2000;

/** Rows of one table in key order, a page at a time (keyset paging: each page is one index range). */
async function* tableRows(db: Kysely<AnyTables>, table: DumpTable): AsyncGenerator<unknown[][]> {
  const columns = table.columns.map((column) => column.name);
  let after: unknown[] | undefined;
  for (;;) {
    let query = db.selectFrom(table.name).select(columns).limit(PAGE_ROWS);
    for (const key of table.key) query = query.orderBy(key);
    if (after) {
      const last = after;
      query = query.where((eb) =>
        table.key.length === 1 ? eb(table.key[0]!, '>', last[0]) : eb(eb.refTuple(...(table.key as [string, string])), '>', eb.tuple(...(last as [unknown, unknown]))),
      );
    }
    const rows = (await query.execute()) as Record<string, unknown>[];
    if (rows.length === 0) return;
    yield rows.map((row) => columns.map((column) => row[column] ?? null));
    if (rows.length < PAGE_ROWS) return;
    const last = rows.at(-1)!;
    after = table.key.map((key) => last[key]);
  }
}

/**
 * Writes every table's rows to `sink`, from one snapshot of the database: a read transaction on
 * one connection (SQLite's WAL lets writers carry on meanwhile; PostgreSQL's repeatable read sees
 * one moment throughout), so a note written during the dump never refers to a user it left out.
 */
export async function writeDump(db: Kysely<Database>, dialect: Dialect, sink: DumpSink, progress: DumpProgress = () => undefined): Promise<{ tables: number; rows: number }> {
  return anyTables(db).connection().execute(async (connection) => {
    await sql.raw(dialect === 'postgres' ? 'begin isolation level repeatable read, read only' : 'begin').execute(connection);
    try {
      const tables = await dumpTables(connection, dialect);
      const header: DumpHeader = { format: DUMP_FORMAT, version: DUMP_VERSION, schema: currentSchema() };
      await sink(`${JSON.stringify(header).slice(0, -1)},"tables":[\n`);
      let rows = 0;
      for (const [index, table] of tables.entries()) {
        const { count } = (await connection.selectFrom(table.name).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()) as { count: number | string };
        const total = Number(count);
        const columns = table.columns.map((column) => column.name);
        await sink(`${index === 0 ? '' : ','}${JSON.stringify({ table: table.name, columns }).slice(0, -1)},"rows":[\n`);
        let done = 0;
        progress(table.name, done, total);
        for await (const page of tableRows(connection, table)) {
          let text = '';
          for (const row of page) {
            text += `${done === 0 ? '' : ','}${JSON.stringify(row)}\n`;
            done += 1;
          }
          await sink(text);
          progress(table.name, done, total);
        }
        rows += done;
        await sink(']}\n');
      }
      await sink(']}\n');
      return { tables: tables.length, rows };
    } finally {
      await sql.raw('rollback').execute(connection);
    }
  });
}

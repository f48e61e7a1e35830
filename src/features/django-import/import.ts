import { readFile, stat } from 'node:fs/promises';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { BadDump, type ParsedDump, parseDump } from './parse.js';
import { type ImportPlan, type ImportRows, planImport } from './plan.js';

// `groupnotes import-django <file>`: a dump of the original Django application into an empty
// database, in one transaction, keeping the Django pks so that every link carries over. The file
// is read whole (JSON.parse), which is fine for the tens of MB such a dump weighs; larger files
// are refused before reading.

export { BadDump } from './parse.js';

/** The largest file read: JSON.parse holds the text and its objects in memory at once. */
export const MAX_DUMP_BYTES = 256 * 1024 * 1024;
/** Rows per INSERT: well under SQLite's and PostgreSQL's limits on bound parameters. */
const CHUNK = 200;
/** Reasons printed per model; the rest are counted. */
const REASONS_SHOWN = 100;

/** The database already holds users: importing would mix two sets of ids and names. */
export class NotEmpty extends Error {}

class DryRun extends Error {}

/** Tables written, in an order that satisfies the foreign keys. */
const TABLES: (keyof ImportRows)[] = [
  'users',
  'groups',
  'group_members',
  'notebooks',
  'tags',
  'notes',
  'note_tags',
  'todo_lists',
  'todo_list_shares',
  'todo_items',
  'shopping_lists',
  'shopping_list_shares',
  'shopping_items',
  'chat_messages',
  'reminders',
];
/** Tables whose inserts fire view-version triggers (migrations 0007, 0015). */
const TRIGGERED = ['notes', 'note_tags', 'group_members', 'reminders'];
const WITH_IDS = TABLES.filter((table) => !['group_members', 'note_tags', 'todo_list_shares', 'shopping_list_shares'].includes(table));

export async function readDump(path: string): Promise<ParsedDump> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    throw new BadDump(`cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (size > MAX_DUMP_BYTES) throw new BadDump(`it is larger than ${MAX_DUMP_BYTES / 1024 / 1024} MB, the most read at once`);
  return parseDump(await readFile(path, 'utf8'));
}

async function write(trx: Kysely<Database>, dialect: Dialect, rows: ImportRows): Promise<void> {
  // Checked inside the transaction: on SQLite it holds the write lock from its start; on
  // PostgreSQL a second import at once fails on the first kept pk and rolls back.
  const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) throw new NotEmpty('the database already has users: import-django loads into an empty database only (run it before createuser)');
  const postgres = dialect === 'postgres';
  // The view-version triggers (migration 0007) update the owner's and the group's row for each
  // note and tag link inserted. Within one PostgreSQL transaction every such update of one row
  // adds a row version the next one walks past: quadratic, a minute for 50,000 notes. They are
  // off for this transaction (DDL is transactional: a rollback turns them back on) and every
  // version is moved once at the end instead. SQLite's triggers cost little and stay on.
  if (postgres) for (const table of TRIGGERED) await sql`alter table ${sql.table(table)} disable trigger user`.execute(trx);
  for (const table of TABLES) {
    const all = rows[table] as Record<string, unknown>[];
    for (let start = 0; start < all.length; start += CHUNK) {
      await trx.insertInto(table).values(all.slice(start, start + CHUNK) as never).execute();
    }
  }
  if (postgres) {
    for (const table of ['users', 'groups', 'notes'] as const) await trx.updateTable(table).set({ view_version: sql<number>`view_version + 1` }).execute();
    for (const table of TRIGGERED) await sql`alter table ${sql.table(table)} enable trigger user`.execute(trx);
    // Identity columns do not move when ids are given: the next insert would reuse a kept pk.
    for (const table of WITH_IDS) {
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(trx);
    }
  }
}

/** Reads, plans and writes: the plan (whose report says what was done) or a thrown BadDump/NotEmpty. */
export async function importDjango(db: Kysely<Database>, dialect: Dialect, path: string, options: { dryRun?: boolean } = {}): Promise<{ dump: ParsedDump; plan: ImportPlan }> {
  const dump = await readDump(path);
  const plan = planImport(dump);
  try {
    await db.transaction().execute(async (trx) => {
      await write(trx, dialect, plan.rows);
      if (options.dryRun) throw new DryRun();
    });
  } catch (error) {
    if (!(error instanceof DryRun)) throw error;
  }
  return { dump, plan };
}

/** The report printed after an import: counts per model, what was left out and why, what was decided. */
export function formatReport(dump: ParsedDump, plan: ImportPlan, dryRun = false): string {
  const lines: string[] = [dryRun ? `dry run: nothing was written; of ${dump.total} entries, an import would bring in:` : `imported from ${dump.total} entries:`];
  const width = Math.max(...[...plan.models.keys()].map((model) => model.length));
  for (const [model, report] of plan.models) {
    if (report.imported === 0 && report.leftOut.length === 0) continue;
    lines.push(`  ${model.padEnd(width)}  ${report.imported} imported${report.leftOut.length > 0 ? `, ${report.leftOut.length} left out` : ''}`);
  }
  const unknown = [...dump.otherModels].sort(([a], [b]) => a.localeCompare(b));
  if (unknown.length > 0) lines.push(`other models, ignored: ${unknown.map(([model, count]) => `${model} ${count}`).join(', ')}`);
  if (dump.unknownFields.size > 0) lines.push(`unknown fields, ignored: ${[...dump.unknownFields].map(([field, count]) => `${field} ${count}`).join(', ')}`);
  if (dump.zonelessDatetimes > 0) lines.push(`${dump.zonelessDatetimes} date(s) and time(s) had no time zone and were read as UTC`);
  for (const notice of plan.notices.slice(0, REASONS_SHOWN * 2)) lines.push(notice);
  if (plan.notices.length > REASONS_SHOWN * 2) lines.push(`... and ${plan.notices.length - REASONS_SHOWN * 2} more notices`);
  const leftOut = [...plan.models.values()].filter((report) => report.leftOut.length > 0);
  if (leftOut.length > 0) {
    lines.push('left out (with everything that depends on them):');
    for (const report of leftOut) {
      for (const reason of report.leftOut.slice(0, REASONS_SHOWN)) lines.push(`  ${reason}`);
      if (report.leftOut.length > REASONS_SHOWN) lines.push(`  ... and ${report.leftOut.length - REASONS_SHOWN} more of this model`);
    }
  }
  return lines.join('\n');
}

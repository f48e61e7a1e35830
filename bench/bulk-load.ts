import type { Kysely } from 'kysely';
import { withIndexesAside } from '../src/db/dump/indexes-aside.js';
import { anyTables } from '../src/db/dump/tables.js';
import type { Dialect } from '../src/db/database.js';
import type { Database } from '../src/db/schema.js';

const BATCH = 500;

/** Many rows as multi-row inserts of BATCH rows (5,500 parameters for a note: under both databases' limits). */
export async function insertInBatches<T extends keyof Database & string>(db: Kysely<Database>, table: T, rows: Record<string, unknown>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    await db.insertInto(table).values(rows.slice(start, start + BATCH) as never).execute();
  }
}

/** The notes' and their tags' indexes and triggers set aside while `load` runs (see src/db/dump/indexes-aside.ts). */
export function withNoteIndexesAside(trx: Kysely<Database>, dialect: Dialect, load: () => Promise<void>): Promise<void> {
  return withIndexesAside(anyTables(trx), dialect, ['notes', 'note_tags'], load);
}

import { type Kysely, sql } from 'kysely';
import type { Database } from '../src/db/schema.js';
import type { TestApp } from './helpers.js';

/**
 * Runs `requests` while the test holds a lock on PostgreSQL, taken by `lock` and released after
 * `holdMs`: the requests all reach the point the lock stops them at together, so they race
 * exactly where a check-then-act without the app's own lock would let several pass. SQLite
 * needs no help: its transactions take turns as a whole (and the test shares the app's one
 * connection, so it could not hold one).
 */
export async function racingWhileLocked<T>(t: TestApp, lock: (trx: Kysely<Database>) => Promise<unknown>, requests: () => Promise<T>, holdMs = 300): Promise<T> {
  if (t.database.dialect !== 'postgres') return requests();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = t.db.transaction().execute(async (trx) => {
    await lock(trx);
    locked();
    await released;
  });
  await isLocked;
  const answers = requests();
  await new Promise((resolve) => setTimeout(resolve, holdMs));
  release();
  await holder;
  return answers;
}

/** With the row locked (`select ... for update`): updates race at their read of it. */
export function racingOnLockedRow<T>(t: TestApp, table: 'notebooks' | 'tags', id: number, requests: () => Promise<T>): Promise<T> {
  return racingWhileLocked(t, (trx) => trx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute(), requests);
}

/** With the table closed to writes (reads still go): inserts race at the insert, after their checks. */
export function racingOnLockedTable<T>(t: TestApp, table: 'access_tokens', requests: () => Promise<T>): Promise<T> {
  return racingWhileLocked(t, (trx) => sql`lock table ${sql.table(table)} in exclusive mode`.execute(trx), requests);
}

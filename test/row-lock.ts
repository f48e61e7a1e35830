import type { TestApp } from './helpers.js';

/**
 * Runs `requests` while the test holds a row lock on PostgreSQL (`select ... for update`), released
 * after `holdMs`: the requests reach their reads while the row is locked, so two of them race
 * exactly where an unlocked read-check-write would let both pass. SQLite needs no help: its
 * transactions take turns as a whole (and the test shares the app's one connection).
 */
export async function racingOnLockedRow<T>(t: TestApp, table: 'notebooks' | 'tags', id: number, requests: () => Promise<T>, holdMs = 300): Promise<T> {
  if (t.database.dialect !== 'postgres') return requests();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = t.db.transaction().execute(async (trx) => {
    await trx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute();
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

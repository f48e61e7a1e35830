import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { startCheckpointer } from './sqlite-checkpoint.js';

// The write-ahead log is copied into the database file by a thread of its own: new pages reach the
// file (it grows) without any commit of the serving connection running a checkpoint, and the
// thread's connection is closed when it stops. SQLite only, whichever database the suite runs on.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratchFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'groupnotes-checkpoint-'));
  dirs.push(dir);
  return join(dir, 'db.sqlite3');
}

/** Resolves once `done` holds, checked every 20 ms; fails after `ms`. */
async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the SQLite checkpoint thread', () => {
  it('copies the log into the database file, which the serving connection’s commits leave alone below SQLite’s threshold', async () => {
    const file = scratchFile();
    const database = openDatabase(`sqlite:${file}`);
    try {
      await sql`create table pages (id integer primary key, body text not null)`.execute(database.db);
      await sql`pragma wal_checkpoint(truncate)`.execute(database.db);
      const before = statSync(file).size;
      // About 100 pages of rows, in ten commits: well under the 1,000 pages of SQLite's own checkpoint.
      for (let commit = 0; commit < 10; commit += 1) {
        const rows = Array.from({ length: 40 }, (_, i) => ({ id: commit * 40 + i + 1, body: 'x'.repeat(1000) }));
        await database.db.insertInto('pages' as never).values(rows as never).execute();
      }
      expect(statSync(file).size).toBe(before);
      const errors: Error[] = [];
      const checkpointer = startCheckpointer(file, (error) => errors.push(error), 20);
      try {
        await until(() => statSync(file).size > before + 50 * 4096);
      } finally {
        await checkpointer.stop();
      }
      expect(errors).toEqual([]);
      const { rows } = await sql<{ n: number }>`select count(*) as n from pages`.execute(database.db);
      expect(Number(rows[0]!.n)).toBe(400);
    } finally {
      await database.close();
    }
  });

  it('closes its connection when stopped: the last connection to close then removes the log', async () => {
    const file = scratchFile();
    const database = openDatabase(`sqlite:${file}`);
    await sql`create table marks (id integer primary key, body text not null)`.execute(database.db);
    const before = statSync(file).size;
    const checkpointer = startCheckpointer(file, () => undefined, 20);
    // Its connection is open once it has copied something into the file.
    for (let id = 1; statSync(file).size === before && id <= 200; id += 1) {
      await sql`insert into marks (id, body) values (${id}, ${'x'.repeat(4000)})`.execute(database.db);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(statSync(file).size).toBeGreaterThan(before);
    await checkpointer.stop();
    await database.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('reports a thread that cannot open the file, and stops all the same', async () => {
    const errors: Error[] = [];
    const checkpointer = startCheckpointer(join(scratchFile(), 'missing.sqlite3'), (error) => errors.push(error), 20);
    await until(() => errors.length > 0);
    await checkpointer.stop();
    expect(errors[0]!.message).toMatch(/unable to open|directory does not exist|no such file/i);
  });
});

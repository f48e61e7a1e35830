import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from './database.js';

// A SQLite file is a reader and a writer connection in each process (sqlite-driver.ts): a write
// waits for the lock between turns of the event loop, so the process goes on answering reads,
// and a read never waits for this process's own transaction.

let dir: string;
let file: string;
let database: DatabaseHandle;
/** Another process's connection to the same file, as a CLI command or a second instance has. */
let other: SQLite.Database;

const values = async (db: Kysely<never>) => (await sql<{ v: string }>`select v from t order by v`.execute(db)).rows.map((row) => row.v);
const insert = (db: Kysely<never>, v: string) => sql`insert into t (v) values (${v})`.execute(db);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'groupnotes-sqlite-'));
  file = join(dir, 'db.sqlite3');
  database = openDatabase(`sqlite:${file}`, { writeLockWaitMs: 1_000 });
  await sql`create table t (v text not null)`.execute(database.db);
  other = new SQLite(file);
  other.pragma('busy_timeout = 0');
});

afterEach(async () => {
  other.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The other connection holds the write lock, with a row of its own not yet committed. */
function holdWriteLock(): void {
  other.exec('begin immediate');
  other.prepare('insert into t (v) values (?)').run('theirs');
}

// A thread holds the lock with a row of its own and commits 50 ms after it is told, whatever this
// thread is doing then (blocked inside SQLite, say), as another worker process would: long enough
// for this thread's write to find the lock held, short of the test's brief wait.
const HOLDER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.exec('begin immediate');
db.prepare('insert into t (v) values (?)').run('theirs');
parentPort.postMessage('held');
Atomics.wait(workerData.signal, 0, 0);
Atomics.wait(workerData.signal, 0, 1, 50);
db.exec('commit');
db.close();
`;

/**
 * Writes `v` while another thread holds the write lock, which it releases 50 ms after the write
 * is sent, on its own thread; true if the event loop turned before the write was done.
 */
async function writeThroughBriefHold(db: Kysely<never>, v: string): Promise<boolean> {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(HOLDER_SOURCE, { eval: true, workerData: { driver, file, signal } });
  const done = new Promise<void>((resolve, reject) => worker.once('exit', () => resolve()).once('error', reject));
  await new Promise<void>((resolve, reject) => worker.once('message', () => resolve()).once('error', reject));
  let turned = false;
  setImmediate(() => (turned = true));
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
  await insert(db, v);
  const turnedMeanwhile = turned;
  await done;
  return turnedMeanwhile;
}

describe('SQLite: reads and writes in one process', () => {
  it('a transaction waits for the lock another process holds while the process answers reads, then commits', async () => {
    const db = database.db as unknown as Kysely<never>;
    holdWriteLock();
    let released = false;
    // A timer can only fire if the wait leaves the event loop free.
    const release = sleep(150).then(() => {
      other.exec('commit');
      released = true;
    });
    const writing = db.transaction().execute(async (trx) => {
      await insert(trx, 'ours');
      return released;
    });
    await sleep(20);
    expect(await values(db)).toEqual([]);
    expect(released).toBe(false);
    expect(await writing).toBe(true);
    await release;
    expect(await values(db)).toEqual(['ours', 'theirs']);
  });

  it('a write outside a transaction waits for the lock the same way', async () => {
    const db = database.db as unknown as Kysely<never>;
    holdWriteLock();
    const release = sleep(100).then(() => other.exec('rollback'));
    await insert(db, 'ours');
    await release;
    expect(await values(db)).toEqual(['ours']);
  });

  it('a transaction that does not get the lock in time fails with SQLITE_BUSY and changes nothing', async () => {
    const db = database.db as unknown as Kysely<never>;
    holdWriteLock();
    let ticks = 0;
    const ticking = setInterval(() => (ticks += 1), 10);
    const started = Date.now();
    try {
      await expect(db.transaction().execute((trx) => insert(trx, 'ours'))).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    } finally {
      clearInterval(ticking);
      other.exec('rollback');
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(ticks).toBeGreaterThan(50);
    expect(await values(db)).toEqual([]);
    // The writer is free again for the next one.
    await insert(db, 'after');
    expect(await values(db)).toEqual(['after']);
  });

  it("a read is answered while this process's own transaction is open, and sees what was committed before it", async () => {
    const db = database.db as unknown as Kysely<never>;
    await insert(db, 'before');
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let inserted!: () => void;
    const insertedInside = new Promise<void>((resolve) => (inserted = resolve));
    const writing = db.transaction().execute(async (trx) => {
      await insert(trx, 'inside');
      inserted();
      await held;
    });
    await insertedInside;
    const read = await Promise.race([values(db), sleep(1_000).then(() => 'the read waited for the transaction')]);
    finish();
    await writing;
    expect(read).toEqual(['before']);
    expect(await values(db)).toEqual(['before', 'inside']);
  });

  it("this process's writes take the writer in the order they asked, and one that waits past its time fails alone", async () => {
    const db = database.db as unknown as Kysely<never>;
    const order: string[] = [];
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const first = db.transaction().execute(async (trx) => {
      await insert(trx, 'first');
      order.push('first');
      await held;
    });
    const second = db.transaction().execute(async (trx) => {
      await insert(trx, 'second');
      order.push('second');
    });
    const late = sleep(1_100).then(() => finish());
    await expect(second).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    await late;
    await first;
    expect(order).toEqual(['first']);
    expect(await values(db)).toEqual(['first']);
  });

  it('a connection that wrote can then run a transaction of its own: it already holds the writer', async () => {
    const db = database.db as unknown as Kysely<never>;
    await db.connection().execute(async (connection) => {
      await insert(connection, 'outside');
      await connection.transaction().execute((trx) => insert(trx, 'inside'));
    });
    expect(await values(db)).toEqual(['inside', 'outside']);
  });

  it('a connection that begins its own read transaction keeps its snapshot while others write', async () => {
    const db = database.db as unknown as Kysely<never>;
    await insert(db, 'before');
    const seen = await db.connection().execute(async (connection) => {
      await sql`begin`.execute(connection);
      try {
        const first = await values(connection);
        await Promise.race([insert(db, 'during'), sleep(1_000).then(() => Promise.reject(new Error('the write waited for the snapshot')))]);
        return [first, await values(connection)];
      } finally {
        await sql`rollback`.execute(connection);
      }
    });
    expect(seen).toEqual([['before'], ['before']]);
    expect(await values(db)).toEqual(['before', 'during']);
  });

  it('a write that finds the lock held for a moment by another process takes it as soon as it is free, not a turn of the event loop later', async () => {
    // A long brief wait, so that the holder's thread has all the time it needs to be scheduled.
    const patient = openDatabase(`sqlite:${file}`, { writeLockWaitMs: 5_000, briefLockWaitMs: 2_000 });
    try {
      const db = patient.db as unknown as Kysely<never>;
      expect(await writeThroughBriefHold(db, 'ours')).toBe(false);
      expect(await values(db)).toEqual(['ours', 'theirs']);
    } finally {
      await patient.close();
    }
  });

  it('only the first try waits inside SQLite: a lock held longer is waited for between turns, and the next write waits briefly again', async () => {
    const patient = openDatabase(`sqlite:${file}`, { writeLockWaitMs: 5_000, briefLockWaitMs: 200 });
    try {
      const db = patient.db as unknown as Kysely<never>;
      holdWriteLock();
      let ticks = 0;
      const ticking = setInterval(() => (ticks += 1), 10);
      const release = sleep(800).then(() => other.exec('commit'));
      const started = Date.now();
      try {
        await insert(db, 'ours');
      } finally {
        clearInterval(ticking);
      }
      await release;
      expect(Date.now() - started).toBeGreaterThanOrEqual(790);
      // 200 ms blocked in the first try, then about 60 ticks; a brief wait in every try would leave a few.
      expect(ticks).toBeGreaterThan(25);
      expect(await writeThroughBriefHold(db, 'again')).toBe(false);
      expect(await values(db)).toEqual(['again', 'ours', 'theirs', 'theirs']);
    } finally {
      await patient.close();
    }
  });
});

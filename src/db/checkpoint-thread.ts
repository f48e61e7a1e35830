import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

// The checkpoint thread (sqlite-checkpoint.ts): a connection of its own, PASSIVE, copying the
// write-ahead log into the database every `intervalMs`. It copies what no reader still needs and
// waits for no one (busy_timeout 0: a checkpoint that would wait is the next run's). An error
// (the file gone) is reported once and the thread ends: SQLite's own checkpoint is still there.

interface CheckpointData {
  /** The resolved better-sqlite3 module, as the serving process loads it. */
  driver: string;
  path: string;
  intervalMs: number;
}

const { driver, path, intervalMs } = workerData as CheckpointData;
const SQLite = createRequire(import.meta.url)(driver) as typeof BetterSqlite3;
const db = new SQLite(path, { fileMustExist: true });
let timer: NodeJS.Timeout;
try {
  db.pragma('busy_timeout = 0');
  timer = setInterval(() => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    }
  }, intervalMs);
} catch (error) {
  db.close();
  throw error;
}

parentPort!.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort!.close();
});

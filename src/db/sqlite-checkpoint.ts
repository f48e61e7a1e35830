import { createRequire } from 'node:module';
import { startThread } from './threads.js';

/**
 * How often the thread copies the write-ahead log into the database. A note edit adds about 14
 * pages to the log: at 10 edits a second that is 35 pages a run, far below SQLite's own threshold.
 */
export const CHECKPOINT_INTERVAL_MS = 250;
/** How long stop() waits for the thread to close its connection before it ends the thread. */
const STOP_WAIT_MS = 2_000;

export interface Checkpointer {
  /** Ends the thread, its connection closed first; bounded by STOP_WAIT_MS. */
  stop(): Promise<void>;
}

/**
 * SQLite's automatic checkpoint runs inside the commit that takes the write-ahead log past 1,000
 * pages, on the thread that serves requests: every seventieth note edit or so stopped the
 * process for 20 to 30 ms (idle server, one edit every 20 ms: p50 4 ms, p99 17 to 24, and the
 * slow edits exactly that far apart). A thread of the serving process's own does it instead, in
 * small runs that block neither readers nor writers (WAL). SQLite's own checkpoint stays as the
 * bound on the log when this thread falls behind (a bulk import) or is gone.
 */
export function startCheckpointer(path: string, onError: (error: Error) => void, intervalMs = CHECKPOINT_INTERVAL_MS): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = startThread(import.meta.url, 'checkpoint-thread', { workerData: { driver, path, intervalMs } });
  worker.unref();
  let exited = false;
  const exit = new Promise<void>((resolve) => worker.once('exit', () => ((exited = true), resolve())));
  worker.on('error', onError);
  return {
    async stop() {
      if (exited) return;
      worker.postMessage('stop');
      const waited = await Promise.race([exit.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, STOP_WAIT_MS, false).unref())]);
      if (!waited) await worker.terminate();
    },
  };
}

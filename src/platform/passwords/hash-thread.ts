import { pbkdf2Sync } from 'node:crypto';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';

// A hashing thread of the pool (hash-pool.ts): PBKDF2-HMAC-SHA256, 32 bytes, one job after the
// other, at a lower scheduling priority than the threads that serve requests (on Linux, nice is
// per thread), so that a login storm never takes CPU from the pages.

interface HashJob {
  id: number;
  password: string;
  salt: string;
  iterations: number;
}

try {
  setPriority(10);
} catch {
  // Not allowed here (some containers): the thread runs at the process's priority.
}

parentPort!.on('message', ({ id, password, salt, iterations }: HashJob) => {
  try {
    parentPort!.postMessage({ id, hash: pbkdf2Sync(password, salt, iterations, 32, 'sha256') });
  } catch (error) {
    parentPort!.postMessage({ id, error: String(error) });
  }
});

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * PBKDF2 on worker threads that lower their own scheduling priority (on Linux, nice is per
 * thread). Hashing then takes every core the request handlers are not using, but a request
 * never waits behind a hash for CPU: a login storm cannot slow the pages down.
 */

/** Computes PBKDF2-HMAC-SHA256 (32 bytes) off the event loop. */
export interface Hasher {
  pbkdf2(password: string, salt: string, iterations: number): Promise<Buffer>;
  /** Gets ready before the server listens, so that the first logins do not stall the pages. */
  warm(): Promise<void>;
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { pbkdf2Sync } = require('node:crypto');
const { setPriority } = require('node:os');
try { setPriority(10); } catch {}
parentPort.on('message', ({ id, password, salt, iterations }) => {
  try {
    parentPort.postMessage({ id, hash: pbkdf2Sync(password, salt, iterations, 32, 'sha256') });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});
`;

interface Job {
  id: number;
  password: string;
  salt: string;
  iterations: number;
  resolve(hash: Buffer): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  /** Sent to the thread and not answered yet, oldest first; it works through them in order. */
  jobs: Job[];
}

/**
 * Jobs a thread holds at once: the one it works on and the next, already in its message queue, so
 * that it starts the next the moment it finishes instead of waiting for this thread's event loop
 * to wake and hand it one (under load, a millisecond or more of an idle core per hash).
 */
const JOBS_PER_THREAD = 2;

export class HashPool implements Hasher {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(private readonly size = availableParallelism()) {}

  pbkdf2(password: string, salt: string, iterations: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, password, salt, iterations, resolve, reject });
      this.dispatch();
    });
  }

  /** Threads running now. */
  get threads(): number {
    return this.slots.length;
  }

  /** Jobs not handed to a thread yet. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Starts every thread now (a server calls this before it listens): starting a thread blocks
   * the event loop for milliseconds, which the first logins would otherwise add to every page
   * being served at that moment.
   */
  async warm(): Promise<void> {
    const started: Promise<unknown>[] = [];
    for (let slot = this.spawn(); slot !== null; slot = this.spawn()) {
      const current = slot;
      const { worker } = current;
      // Referenced until it runs: an unreferenced thread would let a process with nothing else
      // to do exit before the thread is up.
      started.push(
        new Promise((resolve) => worker.once('online', resolve)).then(() => {
          if (current.jobs.length === 0) worker.unref();
        }),
      );
    }
    await Promise.all(started);
  }

  /** An idle thread first, then a new one, then the least busy with room for another job. */
  private pickSlot(): Slot | null {
    const idle = this.slots.find((slot) => slot.jobs.length === 0);
    if (idle) return idle;
    const spawned = this.spawn();
    if (spawned) return spawned;
    let least: Slot | null = null;
    for (const slot of this.slots) if (slot.jobs.length < JOBS_PER_THREAD && (!least || slot.jobs.length < least.jobs.length)) least = slot;
    return least;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.pickSlot();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.jobs.push(job);
      // An idle pool must not keep the process alive (the CLI exits when its work is done).
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, password: job.password, salt: job.salt, iterations: job.iterations });
    }
  }

  private spawn(): Slot | null {
    if (this.slots.length >= this.size) return null;
    const slot: Slot = { worker: new Worker(WORKER_SOURCE, { eval: true }), jobs: [] };
    slot.worker.on('message', (message: { id: number; hash?: Uint8Array; error?: string }) => {
      const at = slot.jobs.findIndex((job) => job.id === message.id);
      const [job] = at === -1 ? [] : slot.jobs.splice(at, 1);
      if (slot.jobs.length === 0) slot.worker.unref();
      if (job && message.hash) job.resolve(Buffer.from(message.hash));
      else job?.reject(new Error(message.error ?? 'hashing failed'));
      this.dispatch();
    });
    slot.worker.on('error', (error) => {
      for (const job of slot.jobs.splice(0)) job.reject(error);
      this.slots.splice(this.slots.indexOf(slot), 1);
      this.dispatch();
    });
    this.slots.push(slot);
    return slot;
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }
}

let processHasher: Hasher | null = null;

/**
 * The hasher of this process, which every app and command in it shares: a pool of as many
 * threads as cores, unless `serve` chose another (a cluster worker asks its primary's pool:
 * hash-cluster.ts).
 */
export function hasher(): Hasher {
  return (processHasher ??= new HashPool());
}

/** Sets the hasher of this process; called once at start, before anything hashes. */
export function useHasher(chosen: Hasher): void {
  processHasher = chosen;
}

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * PBKDF2 on worker threads that lower their own scheduling priority (on Linux, nice is per
 * thread). Hashing then takes every core the request handlers are not using, but a request
 * never waits behind a hash for CPU: a login storm cannot slow the pages down.
 */

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
  job: Job | null;
}

export class HashPool {
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
          if (current.job === null) worker.unref();
        }),
      );
    }
    await Promise.all(started);
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((candidate) => candidate.job === null) ?? this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      // An idle pool must not keep the process alive (the CLI exits when its work is done).
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, password: job.password, salt: job.salt, iterations: job.iterations });
    }
  }

  private spawn(): Slot | null {
    if (this.slots.length >= this.size) return null;
    const slot: Slot = { worker: new Worker(WORKER_SOURCE, { eval: true }), job: null };
    slot.worker.on('message', (message: { id: number; hash?: Uint8Array; error?: string }) => {
      const job = slot.job;
      slot.job = null;
      slot.worker.unref();
      if (job && message.hash) job.resolve(Buffer.from(message.hash));
      else job?.reject(new Error(message.error ?? 'hashing failed'));
      this.dispatch();
    });
    slot.worker.on('error', (error) => {
      slot.job?.reject(error);
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

/** One pool per process: every app and command in it shares the cores. */
export const hashPool = new HashPool();

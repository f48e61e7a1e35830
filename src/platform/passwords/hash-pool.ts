import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../process/threads.js';
import { ServiceUnavailable } from '../../errors.js';

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


/** Why a hash was not computed; each is a 503 with Retry-After, since the same request may pass later. */
export type HashingFailure = 'busy' | 'timeout' | 'thread-exited';

const RETRY_AFTER_SECONDS = 10;

export class HashingUnavailable extends ServiceUnavailable {
  constructor(readonly reason: HashingFailure) {
    super('error.signing_in_busy', RETRY_AFTER_SECONDS);
  }
}

/**
 * Jobs that may wait for a thread, per thread: at the default cost a core does 4 to 5 hashes a
 * second on this machine (bench/README.md), so 16 is three to four seconds of waiting, which a
 * person at a login form still accepts. Anything more is answered 503 at once instead of joining
 * a queue that a single client could otherwise grow without end (and everyone's login with it).
 */
const WAITING_PER_THREAD = 16;
/** A job not answered by then is given up (the login answers 503); its place is freed. */
export const JOB_TIMEOUT_MS = 30_000;

interface Job {
  id: number;
  password: string;
  salt: string;
  iterations: number;
  resolve(hash: Buffer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
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

/** Jobs a pool of `threads` threads takes at once, in its threads and waiting: beyond that it refuses. */
export function poolCapacity(threads = availableParallelism()): number {
  return threads * (JOBS_PER_THREAD + WAITING_PER_THREAD);
}

export interface HashPoolLimits {
  /** Jobs waiting for a thread beyond which new ones are refused (HashingUnavailable 'busy'). */
  maxWaiting?: number;
  /** From submission to answer. */
  timeoutMs?: number;
}

export class HashPool implements Hasher {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly maxWaiting: number;
  private readonly timeoutMs: number;
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size = availableParallelism(),
    { maxWaiting = size * WAITING_PER_THREAD, timeoutMs = JOB_TIMEOUT_MS }: HashPoolLimits = {},
  ) {
    this.maxWaiting = maxWaiting;
    this.timeoutMs = timeoutMs;
  }

  pbkdf2(password: string, salt: string, iterations: number): Promise<Buffer> {
    // The queue only holds jobs while every thread is full, so its length is the wait.
    if (this.closed || this.queue.length >= this.maxWaiting) return Promise.reject(new HashingUnavailable(this.closed ? 'thread-exited' : 'busy'));
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, password, salt, iterations, resolve, reject, timer: setTimeout(() => this.expire(job), this.timeoutMs) };
      job.timer.unref();
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Threads running now. */
  get threads(): number {
    return this.slots.length;
  }

  /** The threads themselves, for inspection (a test stops one to see the pool replace it). */
  get workers(): Worker[] {
    return this.slots.map((slot) => slot.worker);
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
        new Promise((resolve) => {
          worker.once('online', resolve);
          worker.once('exit', resolve);
        }).then(() => {
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
    if (this.closed || this.slots.length >= this.size) return null;
    const slot: Slot = { worker: startThread(import.meta.url, 'hash-thread'), jobs: [] };
    slot.worker.on('message', (message: { id: number; hash?: Uint8Array; error?: string }) => {
      const at = slot.jobs.findIndex((job) => job.id === message.id);
      const [job] = at === -1 ? [] : slot.jobs.splice(at, 1);
      if (slot.jobs.length === 0) slot.worker.unref();
      if (job) clearTimeout(job.timer);
      if (job && message.hash) job.resolve(Buffer.from(message.hash));
      else job?.reject(new Error(message.error ?? 'hashing failed'));
      this.dispatch();
    });
    // A thread that stops by itself (an error, an exit) fails what it held and is replaced.
    const died = () => {
      if (!this.retire(slot)) return;
      for (const job of slot.jobs.splice(0)) this.fail(job, 'thread-exited');
      this.dispatch();
    };
    slot.worker.on('error', died);
    slot.worker.on('exit', died);
    this.slots.push(slot);
    return slot;
  }

  /** Takes a thread out of the pool; false if it was out already. */
  private retire(slot: Slot): boolean {
    const at = this.slots.indexOf(slot);
    if (at === -1) return false;
    this.slots.splice(at, 1);
    return true;
  }

  private fail(job: Job, reason: HashingFailure): void {
    clearTimeout(job.timer);
    job.reject(new HashingUnavailable(reason));
  }

  private expire(job: Job): void {
    const waiting = this.queue.indexOf(job);
    if (waiting !== -1) {
      this.queue.splice(waiting, 1);
      this.fail(job, 'timeout');
      return;
    }
    const slot = this.slots.find((candidate) => candidate.jobs.includes(job));
    if (!slot) return;
    // Its thread is still on it (or on the one before it): that thread is given up and replaced,
    // so that its place is not lost to a hash nobody waits for. What else it held goes back first
    // in line. (A thread inside PBKDF2 ends when that call returns.)
    this.retire(slot);
    const held = slot.jobs.splice(0);
    this.fail(job, 'timeout');
    this.queue.unshift(...held.filter((other) => other !== job));
    void slot.worker.terminate();
    this.dispatch();
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const job of [...this.queue.splice(0), ...slots.flatMap((slot) => slot.jobs.splice(0))]) this.fail(job, 'thread-exited');
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

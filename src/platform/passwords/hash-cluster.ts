import type { Cluster } from 'node:cluster';
import type { Worker } from 'node:cluster';
import { type Hasher, type HashingFailure, HashingUnavailable, JOB_TIMEOUT_MS, poolCapacity } from './hash-pool.js';

// The workers of one `serve` share the machine's cores, so they share one pool of hashing threads
// too: the primary's, as many threads as cores. With a pool per worker, two workers on two cores
// ran four hashing threads that took turns on the same cores (no more logins a second) and made
// each worker's event loop wait longer for a core when a request woke it. One pool also keeps
// every core hashing when most logins reach one worker (a proxy reuses its kept-alive connections).
// The password crosses the IPC pipe to the primary: the same process tree and user as before.

const REQUEST = 'groupnotes.hash';
const RESULT = 'groupnotes.hash-result';

/**
 * Hashes one worker may have in the primary's pool at once: as many as the pool takes. Behind a
 * proxy most logins reach one worker (it reuses its kept-alive connections), so a worker may use
 * the whole pool; the bound keeps what the worker waits for, and what the primary holds for it,
 * finite when the pool is gone or a worker misbehaves. (The machine is the same for both, so
 * its cores are the primary's pool's threads.)
 */
const MAX_JOBS_PER_WORKER = poolCapacity();
/**
 * A worker gives up on its primary's answer a little after the pool gives up on the job, so that
 * the pool's own 503 normally arrives first; this only catches an answer lost on the way.
 */
const ANSWER_TIMEOUT_MS = JOB_TIMEOUT_MS + 5_000;

interface HashRequest {
  type: typeof REQUEST;
  id: number;
  password: string;
  salt: string;
  iterations: number;
}

interface HashResult {
  type: typeof RESULT;
  id: number;
  /** Base64 of the 32-byte digest. */
  digest?: string;
  /** The pool refused or gave up (a 503 for the request). */
  unavailable?: HashingFailure;
  error?: string;
}

function isHashRequest(message: unknown): message is HashRequest {
  const m = message as HashRequest;
  return typeof m === 'object' && m !== null && m.type === REQUEST && typeof m.id === 'number' && typeof m.password === 'string' && typeof m.salt === 'string' && typeof m.iterations === 'number';
}

function isHashResult(message: unknown): message is HashResult {
  const m = message as HashResult;
  return typeof m === 'object' && m !== null && m.type === RESULT && typeof m.id === 'number';
}

interface Waiting {
  resolve(hash: Buffer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** A cluster worker's hasher: the primary computes, on its pool (serveHashing). */
export class PrimaryHasher implements Hasher {
  private readonly pending = new Map<number, Waiting>();
  private readonly maxPending: number;
  private readonly timeoutMs: number;
  private nextId = 1;
  private listening = false;

  constructor(
    private readonly channel: NodeJS.Process = process,
    { maxPending = MAX_JOBS_PER_WORKER, timeoutMs = ANSWER_TIMEOUT_MS } = {},
  ) {
    this.maxPending = maxPending;
    this.timeoutMs = timeoutMs;
  }

  pbkdf2(password: string, salt: string, iterations: number): Promise<Buffer> {
    if (!this.channel.connected || !this.channel.send) return Promise.reject(new Error('the IPC channel to the cluster primary is closed'));
    // The primary would refuse them anyway: they need not cross the pipe to hear it.
    if (this.pending.size >= this.maxPending) return Promise.reject(new HashingUnavailable('busy'));
    this.listen();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.settle(id)?.reject(new HashingUnavailable('timeout')), this.timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
      const request: HashRequest = { type: REQUEST, id, password, salt, iterations };
      this.channel.send!(request);
    });
  }

  /** The primary warms its pool before it starts the workers. */
  async warm(): Promise<void> {}

  /** Takes a request out of those waiting (an answer that comes after this is ignored). */
  private settle(id: number): Waiting | undefined {
    const waiting = this.pending.get(id);
    if (!waiting) return undefined;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    return waiting;
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.channel.on('message', (message: unknown) => {
      if (!isHashResult(message)) return;
      const waiting = this.settle(message.id);
      if (!waiting) return;
      if (message.digest !== undefined) waiting.resolve(Buffer.from(message.digest, 'base64'));
      else if (message.unavailable !== undefined) waiting.reject(new HashingUnavailable(message.unavailable));
      else waiting.reject(new Error(message.error ?? 'hashing failed'));
    });
    this.channel.once('disconnect', () => {
      for (const id of [...this.pending.keys()]) this.settle(id)!.reject(new Error('the cluster primary went away while hashing'));
    });
  }
}

/**
 * For the primary of a cluster: computes its workers' hashes on `pool`, answering each its own,
 * at most `perWorker` at once for each worker (the pool bounds the total). Returns a function that
 * stops serving.
 */
export function serveHashing(primary: Cluster, pool: Hasher, { perWorker = MAX_JOBS_PER_WORKER } = {}): () => void {
  const inPool = new Map<Worker, number>();
  const onMessage = (worker: Worker, message: unknown) => {
    if (!isHashRequest(message)) return;
    const answer = (result: Omit<HashResult, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: RESULT, id: message.id, ...result } satisfies HashResult);
    };
    const held = inPool.get(worker) ?? 0;
    if (held >= perWorker) return answer({ unavailable: 'busy' });
    inPool.set(worker, held + 1);
    const done = () => {
      const left = (inPool.get(worker) ?? 1) - 1;
      if (left > 0) inPool.set(worker, left);
      else inPool.delete(worker);
    };
    pool.pbkdf2(message.password, message.salt, message.iterations).then(
      (hash) => answer({ digest: hash.toString('base64') }),
      (error: unknown) => answer(error instanceof HashingUnavailable ? { unavailable: error.reason } : { error: String(error) }),
    ).finally(done);
  };
  primary.on('message', onMessage);
  return () => primary.off('message', onMessage);
}

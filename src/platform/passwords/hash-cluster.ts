import type { Cluster } from 'node:cluster';
import type { Hasher } from './hash-pool.js';

// The workers of one `serve` share the machine's cores, so they share one pool of hashing threads
// too: the primary's, as many threads as cores. With a pool per worker, two workers on two cores
// ran four hashing threads that took turns on the same cores (no more logins a second) and made
// each worker's event loop wait longer for a core when a request woke it. One pool also keeps
// every core hashing when most logins reach one worker (a proxy reuses its kept-alive connections).
// The password crosses the IPC pipe to the primary: the same process tree and user as before.

const REQUEST = 'groupnotes.hash';
const RESULT = 'groupnotes.hash-result';

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

/** A cluster worker's hasher: the primary computes, on its pool (serveHashing). */
export class PrimaryHasher implements Hasher {
  private readonly pending = new Map<number, { resolve(hash: Buffer): void; reject(error: Error): void }>();
  private nextId = 1;
  private listening = false;

  constructor(private readonly channel: NodeJS.Process = process) {}

  pbkdf2(password: string, salt: string, iterations: number): Promise<Buffer> {
    if (!this.channel.connected || !this.channel.send) return Promise.reject(new Error('the IPC channel to the cluster primary is closed'));
    this.listen();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: HashRequest = { type: REQUEST, id, password, salt, iterations };
      this.channel.send!(request);
    });
  }

  /** The primary warms its pool before it starts the workers. */
  async warm(): Promise<void> {}

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.channel.on('message', (message: unknown) => {
      if (!isHashResult(message)) return;
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.digest !== undefined) waiting.resolve(Buffer.from(message.digest, 'base64'));
      else waiting.reject(new Error(message.error ?? 'hashing failed'));
    });
    this.channel.once('disconnect', () => {
      for (const waiting of this.pending.values()) waiting.reject(new Error('the cluster primary went away while hashing'));
      this.pending.clear();
    });
  }
}

/** For the primary of a cluster: computes its workers' hashes on `pool`, answering each its own. */
export function serveHashing(primary: Cluster, pool: Hasher): void {
  primary.on('message', (worker, message: unknown) => {
    if (!isHashRequest(message)) return;
    const answer = (result: Omit<HashResult, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: RESULT, id: message.id, ...result } satisfies HashResult);
    };
    pool.pbkdf2(message.password, message.salt, message.iterations).then(
      (hash) => answer({ digest: hash.toString('base64') }),
      (error: unknown) => answer({ error: String(error) }),
    );
  });
}

import cluster from 'node:cluster';
import { pbkdf2Sync } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureWorker, forkFixtureWorkers } from '../../../test/index.js';
import { PrimaryHasher, serveHashing } from './hash-cluster.js';
import { HashPool, HashingUnavailable } from './hash-pool.js';

interface Report {
  ready?: boolean;
  tag?: string;
  hex?: string;
  error?: string;
  unavailable?: string;
}

const expected = (password: string, salt: string, iterations: number) => pbkdf2Sync(password, salt, iterations, 32, 'sha256').toString('hex');

describe('hashing for cluster workers on the primary', () => {
  const pool = new HashPool(2);
  let workers: FixtureWorker<Report>[] = [];

  let stopServing = () => {};

  beforeAll(async () => {
    stopServing = serveHashing(cluster, pool, { perWorker: 4 });
    workers = await forkFixtureWorkers<Report>('hash-cluster-worker.ts', 2);
  });

  afterAll(async () => {
    for (const { worker } of workers) worker.kill();
    stopServing();
    await pool.close();
  });

  it("answers each worker's requests, made at the same time, with its own digests", async () => {
    const jobs = workers.map((_, w) => Array.from({ length: 3 }, (__, j) => ({ tag: `w${w}-j${j}`, password: `pw-${w}-${j}`, salt: `salt-${j}`, iterations: 2000 + j })));
    workers.forEach(({ worker }, w) => {
      for (const job of jobs[w]!) worker.send({ job });
    });
    const answered = (reports: Report[]) => reports.filter((report) => report.tag);
    await expect.poll(() => workers.map(({ reports }) => answered(reports).length), { timeout: 10_000 }).toEqual([3, 3]);
    workers.forEach(({ reports }, w) => {
      const byTag = new Map(answered(reports).map((report) => [report.tag, report.hex]));
      for (const job of jobs[w]!) expect(byTag.get(job.tag)).toBe(expected(job.password, job.salt, job.iterations));
    });
  });

  it('passes a failure back to the worker that asked', async () => {
    const { worker, reports } = workers[1]!;
    worker.send({ job: { tag: 'bad', password: 'pw', salt: 'salt', iterations: 0 } });
    await expect.poll(() => reports.find((report) => report.tag === 'bad'), { timeout: 10_000 }).toMatchObject({ tag: 'bad', error: expect.stringMatching(/iterations/) });
  });

  it("refuses a worker's hashes beyond its share of the pool with a 503 the worker can answer, and does the rest", async () => {
    const { worker, reports } = workers[0]!;
    const jobs = Array.from({ length: 6 }, (_, j) => ({ tag: `share-${j}`, password: `pw-${j}`, salt: 'salt', iterations: 1_000_000 }));
    for (const job of jobs) worker.send({ job });
    const answered = () => reports.filter((report) => report.tag?.startsWith('share-'));
    await expect.poll(() => answered().length, { timeout: 20_000 }).toBe(6);
    expect(answered().filter((report) => report.hex)).toHaveLength(4);
    expect(answered().filter((report) => report.unavailable === 'busy')).toHaveLength(2);
  });
});

/** Node's IPC channel as a worker process sees it: what is sent to the primary is recorded. */
class Channel extends EventEmitter {
  connected = true;
  sent: { id: number }[] = [];
  send(message: { id: number }): boolean {
    this.sent.push(message);
    return true;
  }
}

describe('PrimaryHasher', () => {
  const worker = (channel: Channel) => new PrimaryHasher(channel as unknown as NodeJS.Process);

  it('matches answers to requests by id, whatever their order', async () => {
    const channel = new Channel();
    const hasher = worker(channel);
    const first = hasher.pbkdf2('a', 'salt', 1000);
    const second = hasher.pbkdf2('b', 'salt', 1000);
    const [one, two] = channel.sent;
    channel.emit('message', { type: 'groupnotes.hash-result', id: two!.id, digest: Buffer.from('second').toString('base64') });
    channel.emit('message', { type: 'groupnotes.hash-result', id: one!.id, digest: Buffer.from('first').toString('base64') });
    expect((await first).toString()).toBe('first');
    expect((await second).toString()).toBe('second');
  });

  it('fails what is waiting when the primary goes away, and refuses once the channel is closed', async () => {
    const channel = new Channel();
    const hasher = worker(channel);
    const waiting = hasher.pbkdf2('a', 'salt', 1000);
    channel.connected = false;
    channel.emit('disconnect');
    await expect(waiting).rejects.toThrow(/went away/);
    await expect(hasher.pbkdf2('b', 'salt', 1000)).rejects.toThrow(/closed/);
  });

  it('refuses more hashes than its bound at once, with a 503, without sending them', async () => {
    const channel = new Channel();
    const hasher = new PrimaryHasher(channel as unknown as NodeJS.Process, { maxPending: 2 });
    const taken = [hasher.pbkdf2('a', 'salt', 1000), hasher.pbkdf2('b', 'salt', 1000)];
    await expect(hasher.pbkdf2('c', 'salt', 1000)).rejects.toMatchObject({ reason: 'busy', statusCode: 503 });
    expect(channel.sent).toHaveLength(2);
    for (const [i, request] of channel.sent.entries()) channel.emit('message', { type: 'groupnotes.hash-result', id: request.id, digest: Buffer.from(`d${i}`).toString('base64') });
    expect(await Promise.all(taken)).toHaveLength(2);
    // Answered ones free their places.
    void hasher.pbkdf2('d', 'salt', 1000).catch(() => undefined);
    expect(channel.sent).toHaveLength(3);
  });

  it('gives up on an answer that does not come in time, frees its place, and ignores it when it comes late', async () => {
    const channel = new Channel();
    const hasher = new PrimaryHasher(channel as unknown as NodeJS.Process, { maxPending: 1, timeoutMs: 100 });
    const started = Date.now();
    await expect(hasher.pbkdf2('a', 'salt', 1000)).rejects.toMatchObject({ reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1_000);
    const next = hasher.pbkdf2('b', 'salt', 1000);
    channel.emit('message', { type: 'groupnotes.hash-result', id: channel.sent[0]!.id, digest: Buffer.from('late').toString('base64') });
    channel.emit('message', { type: 'groupnotes.hash-result', id: channel.sent[1]!.id, digest: Buffer.from('on time').toString('base64') });
    expect((await next).toString()).toBe('on time');
  });

  it("answers the primary's 503 as the same typed error", async () => {
    const channel = new Channel();
    const hasher = worker(channel);
    const refused = hasher.pbkdf2('a', 'salt', 1000);
    channel.emit('message', { type: 'groupnotes.hash-result', id: channel.sent[0]!.id, unavailable: 'busy' });
    await expect(refused).rejects.toBeInstanceOf(HashingUnavailable);
  });
});

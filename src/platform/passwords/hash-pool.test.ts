import { execFileSync } from 'node:child_process';
import { pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HashPool, HashingUnavailable } from './hash-pool.js';

describe('hash pool', () => {
  it('computes PBKDF2-HMAC-SHA256 exactly like node:crypto, with more jobs than workers', async () => {
    const pool = new HashPool(2);
    try {
      const inputs = Array.from({ length: 7 }, (_, i) => ({ password: `pw-${i}`, salt: `salt-${i}`, iterations: 1000 + i }));
      const hashes = await Promise.all(inputs.map((input) => pool.pbkdf2(input.password, input.salt, input.iterations)));
      hashes.forEach((hash, i) => {
        const { password, salt, iterations } = inputs[i]!;
        expect(hash.equals(pbkdf2Sync(password, salt, iterations, 32, 'sha256'))).toBe(true);
      });
    } finally {
      await pool.close();
    }
  });

  it('hands each thread its next job before it finishes the one it works on, and no more', async () => {
    const pool = new HashPool(1);
    try {
      const jobs = Array.from({ length: 5 }, (_, i) => pool.pbkdf2(`pw-${i}`, 'salt', 1000));
      expect(pool.waiting).toBe(3);
      const hashes = await Promise.all(jobs);
      expect(pool.waiting).toBe(0);
      hashes.forEach((hash, i) => expect(hash.equals(pbkdf2Sync(`pw-${i}`, 'salt', 1000, 32, 'sha256'))).toBe(true));
    } finally {
      await pool.close();
    }
  });

  it('handles Unicode passwords as UTF-8, as Django does', async () => {
    const pool = new HashPool(1);
    try {
      const hash = await pool.pbkdf2('pässwörd-日本', 'salt', 1000);
      expect(hash.equals(pbkdf2Sync(Buffer.from('pässwörd-日本', 'utf8'), 'salt', 1000, 32, 'sha256'))).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('starts all its threads when warmed, once, and still hashes with them', async () => {
    const pool = new HashPool(2);
    try {
      expect(pool.threads).toBe(0);
      await pool.warm();
      expect(pool.threads).toBe(2);
      await pool.warm();
      expect(pool.threads).toBe(2);
      const hash = await pool.pbkdf2('pw', 'salt', 1000);
      expect(hash.equals(pbkdf2Sync('pw', 'salt', 1000, 32, 'sha256'))).toBe(true);
      expect(pool.threads).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('keeps a process with nothing else to do alive until its threads are up, then lets it exit', () => {
    const source = `import { HashPool } from ${JSON.stringify(new URL('./hash-pool.ts', import.meta.url).pathname)};
      const pool = new HashPool(2);
      await pool.warm();
      console.log(pool.threads);`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { encoding: 'utf8', timeout: 20_000 });
    expect(out.trim()).toBe('2');
  });

  it('answers a job beyond its bound at once with a typed error, and still does the ones it took', async () => {
    const pool = new HashPool(1, { maxWaiting: 2 });
    try {
      const taken = Array.from({ length: 4 }, (_, i) => pool.pbkdf2(`pw-${i}`, 'salt', 1000));
      const started = Date.now();
      const refused = pool.pbkdf2('one-too-many', 'salt', 1000);
      await expect(refused).rejects.toBeInstanceOf(HashingUnavailable);
      await expect(refused).rejects.toMatchObject({ reason: 'busy', statusCode: 503, headers: { 'retry-after': expect.stringMatching(/^\d+$/) } });
      expect(Date.now() - started).toBeLessThan(100);
      expect(await Promise.all(taken)).toHaveLength(4);
    } finally {
      await pool.close();
    }
  });

  it('gives up on a job past its timeout, whether it waits or runs, and frees its place for the next', async () => {
    const pool = new HashPool(1, { timeoutMs: 300 });
    try {
      const started = Date.now();
      const jobs = await Promise.allSettled(['running', 'held', 'waiting'].map((password) => pool.pbkdf2(password, 'salt', 3_000_000)));
      for (const job of jobs) expect(job).toMatchObject({ status: 'rejected', reason: { reason: 'timeout' } });
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(pool.waiting).toBe(0);
      const next = await pool.pbkdf2('next', 'salt', 1000);
      expect(next.equals(pbkdf2Sync('next', 'salt', 1000, 32, 'sha256'))).toBe(true);
      expect(pool.threads).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('fails the jobs of a thread that dies instead of leaving them waiting, and starts another thread', async () => {
    const pool = new HashPool(1);
    try {
      await pool.warm();
      const jobs = Promise.allSettled([pool.pbkdf2('a', 'salt', 3_000_000), pool.pbkdf2('b', 'salt', 3_000_000)]);
      await pool.workers[0]!.terminate();
      for (const job of await jobs) expect(job).toMatchObject({ status: 'rejected', reason: { reason: 'thread-exited' } });
      const next = await pool.pbkdf2('next', 'salt', 1000);
      expect(next.equals(pbkdf2Sync('next', 'salt', 1000, 32, 'sha256'))).toBe(true);
      expect(pool.threads).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('fails what is left when closed, and takes nothing after', async () => {
    const pool = new HashPool(1);
    const jobs = Promise.allSettled([pool.pbkdf2('a', 'salt', 3_000_000), pool.pbkdf2('b', 'salt', 3_000_000), pool.pbkdf2('c', 'salt', 1000)]);
    await pool.close();
    for (const job of await jobs) expect(job.status === 'rejected' && job.reason instanceof HashingUnavailable).toBe(true);
    await expect(pool.pbkdf2('d', 'salt', 1000)).rejects.toBeInstanceOf(HashingUnavailable);
  });
});

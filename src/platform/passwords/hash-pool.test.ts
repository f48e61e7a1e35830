import { execFileSync } from 'node:child_process';
import { pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HashPool } from './hash-pool.js';

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
});

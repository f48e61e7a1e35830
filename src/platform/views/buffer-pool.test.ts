import { describe, expect, it } from 'vitest';
import { BufferPool } from './buffer-pool.js';

describe('BufferPool', () => {
  it('hands out buffers of the size asked, each with memory of its own', () => {
    const pool = new BufferPool(1024 * 1024);
    const [a, b] = [pool.take(5_000), pool.take(5_000)];
    expect([a.length, b.length]).toEqual([5_000, 5_000]);
    expect(a.buffer).not.toBe(b.buffer);
    a.fill(1);
    b.fill(2);
    expect(a.every((byte) => byte === 1)).toBe(true);
  });

  it('hands a buffer given back out again, once, for a size near its own', () => {
    const pool = new BufferPool(1024 * 1024);
    const first = pool.take(50_000);
    pool.give(first);
    expect(pool.waitingBytes).toBeGreaterThanOrEqual(50_000);
    const again = pool.take(48_000);
    expect(again.buffer).toBe(first.buffer);
    expect(again.length).toBe(48_000);
    expect(pool.waitingBytes).toBe(0);
    expect(pool.take(48_000).buffer).not.toBe(first.buffer);
  });

  it('does not hand a buffer out for a size far from its own', () => {
    const pool = new BufferPool(1024 * 1024);
    const [small, large] = [pool.take(10_000), pool.take(40_000)];
    pool.give(large);
    expect(pool.take(4_000).buffer).not.toBe(large.buffer); // far smaller
    expect(pool.take(40_000).buffer).toBe(large.buffer);
    pool.give(small);
    expect(pool.take(20_000).buffer).not.toBe(small.buffer); // larger
    expect(pool.take(10_000).buffer).toBe(small.buffer);
  });

  it('hands a buffer given back twice out once', () => {
    const pool = new BufferPool(1024 * 1024);
    const buffer = pool.take(20_000);
    pool.give(buffer);
    pool.give(buffer);
    expect(pool.take(20_000).buffer).toBe(buffer.buffer);
    expect(pool.take(20_000).buffer).not.toBe(buffer.buffer);
  });

  it('keeps at most its limit of bytes waiting, leaving the rest to the collector', () => {
    const pool = new BufferPool(20_000);
    const buffers = Array.from({ length: 6 }, () => pool.take(8_000));
    for (const buffer of buffers) pool.give(buffer);
    expect(pool.waitingBytes).toBeLessThanOrEqual(20_000);
    expect(pool.waitingBytes).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from 'vitest';
import { TokenBucket } from './rate-limit.js';

describe('the per-connection token bucket', () => {
  it('allows a burst, then refills at the given rate up to the burst', () => {
    const bucket = new TokenBucket(3, 2, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([true, true, true, false]);
    expect(bucket.take(400)).toBe(false);
    expect(bucket.take(500)).toBe(true);
    expect(bucket.take(10_000) && bucket.take(10_000) && bucket.take(10_000)).toBe(true);
    expect(bucket.take(10_000)).toBe(false);
  });

  it('never refuses when the rate is 0 (the switch for load tests)', () => {
    const bucket = new TokenBucket(1, 0, 0);
    expect(Array.from({ length: 1000 }, () => bucket.take(0)).every(Boolean)).toBe(true);
  });
});

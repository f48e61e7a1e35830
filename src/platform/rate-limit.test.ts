import { describe, expect, it } from 'vitest';
import { KeyedBuckets, TokenBucket, takeFromEach } from './rate-limit.js';

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

describe('several buckets at once', () => {
  it('take one request from each, or from none: the bucket that refuses says so and the others keep theirs', () => {
    const token = new TokenBucket(2, 1, 0);
    const user = new TokenBucket(3, 1, 0);
    expect([takeFromEach([token, user], 0), takeFromEach([token, user], 0)]).toEqual([null, null]);
    expect(takeFromEach([token, user], 0)).toEqual({ refusedBy: 0, seconds: 1 });
    // The refusal spent nothing of the user's bucket: another of the user's tokens still has its one.
    const other = new TokenBucket(2, 1, 0);
    expect(takeFromEach([other, user], 0)).toBeNull();
    expect(takeFromEach([other, user], 0)).toEqual({ refusedBy: 1, seconds: 1 });
    expect(other.take(0)).toBe(true);
  });
});

describe('buckets by key', () => {
  it('keep at most their bound, dropping the least recently used', () => {
    const buckets = new KeyedBuckets(1, 1, 3);
    for (const key of ['a', 'b', 'c']) buckets.bucket(key, 0).take(0);
    buckets.bucket('a', 0);
    buckets.bucket('d', 0);
    expect(buckets.size).toBe(3);
    // 'b' was the least recently used: it went, and comes back full; 'a' was kept, still empty.
    expect(buckets.bucket('b', 0).take(0)).toBe(true);
    expect(buckets.bucket('a', 0).take(0)).toBe(false);
    for (let i = 0; i < 1000; i++) buckets.bucket(`key ${i}`, 0);
    expect(buckets.size).toBe(3);
  });
});

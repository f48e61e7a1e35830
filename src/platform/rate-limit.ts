/** A token bucket: `burst` frames at once, refilled at `perSecond`; 0 per second means no limit. */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    now = Date.now(),
  ) {
    this.tokens = burst;
    this.updatedAt = now;
  }

  /** Whether a request would be let through now, taking nothing. */
  ready(now = Date.now()): boolean {
    if (this.perSecond === 0) return true;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) * this.perSecond) / 1000);
    this.updatedAt = now;
    return this.tokens >= 1;
  }

  take(now = Date.now()): boolean {
    if (!this.ready(now)) return false;
    if (this.perSecond !== 0) this.tokens -= 1;
    return true;
  }

  /** Whole seconds until the next request would be let through (for Retry-After). */
  secondsUntilNext(): number {
    return this.perSecond === 0 ? 0 : Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond));
  }
}

/** Token buckets by key, at most `max` of them: past it the least recently used goes (its key starts again from a full bucket). */
export class KeyedBuckets {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly max: number,
  ) {}

  get size(): number {
    return this.buckets.size;
  }

  /** The bucket of `key` (a full one if it has none), now the most recently used. */
  bucket(key: string, now = Date.now()): TokenBucket {
    let bucket = this.buckets.get(key);
    if (bucket) this.buckets.delete(key);
    else {
      bucket = new TokenBucket(this.burst, this.perSecond, now);
      if (this.buckets.size >= this.max) this.buckets.delete(this.buckets.keys().next().value!);
    }
    this.buckets.set(key, bucket);
    return bucket;
  }
}

/**
 * One request from every bucket, or from none: a request one bucket refuses spends nothing of
 * the others. Null when it may go on; else the first bucket that refused, by its place, and the
 * whole seconds until it would not (for Retry-After).
 */
export function takeFromEach(buckets: readonly TokenBucket[], now = Date.now()): { refusedBy: number; seconds: number } | null {
  const refusedBy = buckets.findIndex((bucket) => !bucket.ready(now));
  if (refusedBy >= 0) return { refusedBy, seconds: buckets[refusedBy]!.secondsUntilNext() };
  for (const bucket of buckets) bucket.take(now);
  return null;
}

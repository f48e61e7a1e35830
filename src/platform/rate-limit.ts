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

  take(now = Date.now()): boolean {
    if (this.perSecond === 0) return true;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) * this.perSecond) / 1000);
    this.updatedAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whole seconds until the next request would be let through (for Retry-After). */
  secondsUntilNext(): number {
    return this.perSecond === 0 ? 0 : Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond));
  }
}

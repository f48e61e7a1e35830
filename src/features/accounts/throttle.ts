import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { identityKey } from '../../platform/identity-key.js';

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;

/**
 * Failed logins, counted per username and per client address in a sliding 15-minute window.
 * Kept in the database so that every instance behind the proxy sees the same counts.
 */
export class LoginThrottle {
  constructor(private readonly db: Kysely<Database>) {}

  private scopes(username: string, ip: string): string[] {
    // By the username's key: every spelling that logs in to one account counts against it.
    return [`user:${identityKey(username).slice(0, 150)}`, `ip:${ip}`];
  }

  /** Seconds until another attempt is allowed, or 0 when one is allowed now. */
  async retryAfter(username: string, ip: string, now = Date.now()): Promise<number> {
    const rows = await this.db
      .selectFrom('login_failures')
      .select(['scope', (eb) => eb.fn.countAll<number>().as('failures'), (eb) => eb.fn.min('at').as('oldest')])
      .where('scope', 'in', this.scopes(username, ip))
      .where('at', '>', now - WINDOW_MS)
      .groupBy('scope')
      .execute();
    const blocked = rows.filter((row) => Number(row.failures) >= MAX_FAILURES);
    if (blocked.length === 0) return 0;
    const oldest = Math.min(...blocked.map((row) => Number(row.oldest)));
    return Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
  }

  async recordFailure(username: string, ip: string, now = Date.now()): Promise<void> {
    await this.db
      .insertInto('login_failures')
      .values(this.scopes(username, ip).map((scope) => ({ scope, at: now })))
      .execute();
  }

  /** A successful login forgives the username's failures (not the address's). */
  async clearUser(username: string): Promise<void> {
    const [userScope] = this.scopes(username, '');
    await this.db.deleteFrom('login_failures').where('scope', '=', userScope!).execute();
  }

  async sweep(now = Date.now()): Promise<void> {
    await this.db.deleteFrom('login_failures').where('at', '<=', now - WINDOW_MS).execute();
  }
}

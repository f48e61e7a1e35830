import type { Kysely } from 'kysely';
import type { Database } from './db/schema.js';
import { AttemptThrottle } from './features/accounts/index.js';
import { SessionStore } from './platform/chain/session.js';
import { trimActivity } from './features/groups/index.js';

/**
 * Removes expired sessions, forgotten login failures and old group activity (keeping that table
 * bounded: platform/activity.ts); returns how many sessions went. It knows
 * the features whose rows expire, so it lives beside server.ts and the CLI, not in the platform.
 */
export async function sweepExpired(db: Kysely<Database>): Promise<number> {
  const removed = await new SessionStore(db, 0).clearExpired();
  await new AttemptThrottle(db).sweep();
  await trimActivity(db);
  return removed;
}

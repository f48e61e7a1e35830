import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { AttemptThrottle } from '../features/accounts/throttle.js';
import { SessionStore } from './session.js';

/** Removes expired sessions and forgotten login failures; returns how many sessions went. */
export async function sweepExpired(db: Kysely<Database>): Promise<number> {
  const removed = await new SessionStore(db, 0).clearExpired();
  await new AttemptThrottle(db).sweep();
  return removed;
}

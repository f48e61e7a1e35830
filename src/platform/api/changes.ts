import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { checkIfMatch } from './routes.js';

/** Work to do once the caller's transaction has committed: announcements of what it changed. */
export type AfterCommit = (() => Promise<void>)[];

/**
 * An update that honours If-Match without a race: in one transaction, lock the row, read it as
 * GET shows it, check the client's ETag against that, write, and read it back. A second writer
 * waits on the lock, then finds the object changed and answers 412. What the write announces
 * goes into `later`, run only once the transaction has committed.
 */
export async function checkedChange<Service, T>(
  db: Kysely<Database>,
  request: FastifyRequest,
  steps: {
    /** The service on the transaction; what it must announce goes into `later`. */
    on: (trx: Kysely<Database>, later: AfterCommit) => Service;
    lock: (service: Service) => Promise<void>;
    read: (service: Service) => Promise<T>;
    write: (service: Service, current: T) => Promise<void>;
  },
): Promise<T> {
  const later: AfterCommit = [];
  const result = await db.transaction().execute(async (trx) => {
    const service = steps.on(trx, later);
    await steps.lock(service);
    const current = await steps.read(service);
    checkIfMatch(request, current);
    await steps.write(service, current);
    return steps.read(service);
  });
  for (const announce of later) await announce();
  return result;
}

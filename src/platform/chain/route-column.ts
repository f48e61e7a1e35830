import type { FastifyRequest } from 'fastify';
import type { AliasableExpression, Expression, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * A value a route reads in the session's statement, for the session's user: one round trip
 * instead of two (the token of the page a route keeps, say). Routes name theirs in their config.
 */
export interface RouteColumn {
  /** The route's argument (a path id); undefined reads the session alone. */
  argument(request: FastifyRequest): number | undefined;
  /**
   * A scalar subquery for the session's user and the argument. `userId` is a reference to the
   * session row's `sessions.user_id`, `argument` the argument's value or a reference to it (when
   * many sessions are read at once): the subquery must not name the table `sessions` itself.
   */
  column(db: Kysely<Database>, userId: Expression<number>, argument: Expression<number>): AliasableExpression<unknown>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Read with the session, in its statement (RouteColumn). */
    routeColumn?: RouteColumn;
  }
}

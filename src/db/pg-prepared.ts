import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { ConnectionLanes, lazyClient } from './pg-pool.js';

/** Distinct statements one PostgreSQL connection keeps prepared; the app sends far fewer. */
export const PREPARED_PER_CONNECTION = 200;

/**
 * Marks a statement whose best plan depends on its parameters' values (how many notes hold a
 * search word), which a prepared statement cannot follow: after five executions PostgreSQL may
 * settle on one generic plan, costed for a value it has not seen. A statement whose text holds
 * this comment is sent unnamed, so it is planned for its values every time.
 */
export const PLAN_FOR_VALUES = '/* planned for its values */';

/** Statements worth preparing: parameterised reads and writes (not DDL, BEGIN, EXPLAIN or scripts). */
const PREPARABLE = /^\s*\(?\s*(select|insert|update|delete|with)\b/i;
const BEGINS = /^\s*(begin|start transaction)\b/i;
const ENDS = /^\s*(commit|rollback)\s*$/i;

/**
 * PostgreSQL refuses to run a prepared `select *` whose table gained or lost columns since it was
 * prepared (a migration run by another instance while this one serves). It says so before the
 * statement runs, so nothing happened.
 */
function isStalePlan(error: unknown): boolean {
  return error instanceof Error && (error as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(error.message);
}

/** Names already worked out, by statement text: hashing the text took ~2% of a worker's time under load. */
const names = new Map<string, string>();
/** Texts whose names are remembered: the app has a few hundred statements; any past this are hashed each time. */
const NAMES_KEPT = 2_000;

function statementName(source: string): string {
  let name = names.get(source);
  if (name === undefined) {
    name = `gn_${createHash('sha1').update(source).digest('base64url').slice(0, 22)}`;
    if (names.size < NAMES_KEPT) names.set(source, name);
  }
  return name;
}

/**
 * Kysely sends every query unnamed, so PostgreSQL parses and plans it again each time (for a
 * small query, most of its cost). A name makes pg prepare the statement once per connection
 * and then only bind and execute it (pg keeps the names it prepared on the connection). The
 * name is a hash of the SQL text, so the same text always gets the same name. A connection
 * prepares at most PREPARED_PER_CONNECTION distinct statements (PostgreSQL keeps each one for
 * the connection's life); any further text is sent unnamed. A statement PostgreSQL no longer
 * accepts (stale after a migration) is sent unnamed from then on, and sent again at once unless
 * a transaction is open (which the refusal has aborted: it fails, once).
 */
function preparingClient(client: pg.PoolClient): PostgresPoolClient['query'] {
  const prepared = new Set<string>();
  const stale = new Set<string>();
  let inTransaction = false;
  const query = client.query.bind(client) as PostgresPoolClient['query'];
  const send = async (source: string, parameters: ReadonlyArray<unknown>) => {
    const name = statementName(source);
    if (stale.has(name)) return query(source, parameters);
    if (!prepared.has(name)) {
      if (prepared.size >= PREPARED_PER_CONNECTION) return query(source, parameters);
      prepared.add(name);
    }
    try {
      return await client.query({ name, text: source, values: [...parameters] });
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      stale.add(name);
      if (inTransaction) throw error;
      return query(source, parameters);
    }
  };
  return ((source: unknown, parameters?: ReadonlyArray<unknown>) => {
    if (typeof source === 'string' && BEGINS.test(source)) inTransaction = true;
    if (typeof source === 'string' && ENDS.test(source)) inTransaction = false;
    if (typeof source !== 'string' || !parameters || parameters.length === 0 || !PREPARABLE.test(source) || source.includes(PLAN_FOR_VALUES)) {
      return parameters === undefined ? query(source as never) : query(source as string, parameters);
    }
    return send(source, parameters);
  }) as PostgresPoolClient['query'];
}

/**
 * The pool Kysely is given. Its clients take a connection of `pool` (whose `max` is `size`) at
 * their first statement, writes first (pg-pool.ts), and send named statements through the
 * connection's own record of what it prepared.
 */
export function preparingPool(pool: pg.Pool, size: number, waitMs?: number): PostgresPool & { lanes: ConnectionLanes<pg.PoolClient> } {
  const queries = new WeakMap<pg.PoolClient, PostgresPoolClient['query']>();
  const lanes = new ConnectionLanes(size, () => pool.connect(), (client: pg.PoolClient) => client.release(), waitMs);
  const queryOn = (client: pg.PoolClient) => {
    let query = queries.get(client);
    if (!query) queries.set(client, (query = preparingClient(client)));
    return query;
  };
  return {
    lanes,
    connect: async () => lazyClient(lanes, queryOn),
    end: () => pool.end(),
  };
}

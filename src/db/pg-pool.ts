import type { PostgresPoolClient } from 'kysely';
import { ConnectionWaitTimeout } from './errors.js';

/**
 * Marks a read made on the way to a write (the session of a form's POST): it waits for a
 * connection with the writes, not behind the reads (goesFirst).
 */
export const GOES_FIRST = '/* goes first */';

const BEGINS_OR_WRITES = /^\s*(begin|start\s+transaction|insert|update|delete)\b/i;
/** A data-modifying common table expression: `with saved as (update ...)`. */
const WRITING_CTE = /\bas\s*\(\s*(insert|update|delete)\b/i;

/**
 * Whether a statement waits in the first line for a connection: a transaction (its BEGIN), a
 * write, or a statement marked GOES_FIRST. Everything else (a page's reads) waits in the second.
 */
export function goesFirst(source: unknown): boolean {
  if (typeof source !== 'string') return false;
  if (BEGINS_OR_WRITES.test(source)) return true;
  if (/^\s*with\b/i.test(source) && WRITING_CTE.test(source)) return true;
  return source.includes(GOES_FIRST);
}

/**
 * How long a statement waits for a connection before it fails: a stuck database fails requests
 * instead of piling them up. Each request waits for one connection at a time, so the lines are
 * no longer than the requests in flight.
 */
export const CONNECTION_WAIT_MS = 10_000;

/**
 * A process's database connections, lent in two lines. Under load every connection is busy and
 * requests queue for one; in a single line an edit waited behind the reads of every page asked
 * before it (the crowd benchmark's PostgreSQL edits: p99 about 55 ms, against about 43 with the
 * writes first). The writes are few and short, so the reads lose nothing measurable. Within a
 * line, first come first served. At most `size` are lent at once: the pool underneath never
 * queues, so its order cannot undo this one.
 */
export class ConnectionLanes<C> {
  private lent = 0;
  private readonly first: (() => void)[] = [];
  private readonly second: (() => void)[] = [];

  constructor(
    private readonly size: number,
    private readonly open: () => Promise<C>,
    private readonly giveBack: (connection: C) => void,
    private readonly waitMs = CONNECTION_WAIT_MS,
  ) {}

  async acquire(first: boolean): Promise<C> {
    if (this.lent < this.size) this.lent += 1;
    else await this.wait(first ? this.first : this.second);
    try {
      return await this.open();
    } catch (error) {
      this.handOn();
      throw error;
    }
  }

  release(connection: C): void {
    this.giveBack(connection);
    this.handOn();
  }

  /** How many wait in each line (for tests). */
  get waiting(): { first: number; second: number } {
    return { first: this.first.length, second: this.second.length };
  }

  /** Resolves when a place is handed on to this waiter; fails after waitMs, out of the line. */
  private wait(line: (() => void)[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const take = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        line.splice(line.indexOf(take), 1);
        reject(new ConnectionWaitTimeout(this.waitMs));
      }, this.waitMs);
      line.push(take);
    });
  }

  /** The freed place goes to the first line's oldest waiter, else the second's, else back. */
  private handOn(): void {
    const next = this.first.shift() ?? this.second.shift();
    if (next) next();
    else this.lent -= 1;
  }
}

/**
 * A client that takes its connection only when its first statement is sent, so that the
 * statement can choose its line (Kysely asks the pool for a connection before it says what for).
 * Every later statement, the rest of a transaction, runs on the same connection until release.
 */
export function lazyClient<C>(lanes: ConnectionLanes<C>, queryOn: (connection: C) => PostgresPoolClient['query']): PostgresPoolClient {
  type Held = { connection: C; query: PostgresPoolClient['query'] };
  let held: Held | undefined;
  let taking: Promise<Held> | undefined;
  const take = async (source: unknown) => {
    const connection = await lanes.acquire(goesFirst(source));
    held = { connection, query: queryOn(connection) };
    return held;
  };
  return {
    // Kysely sends a connection's statements one after another; a cursor is never asked for (the dialect has none).
    query: ((source: string, parameters: ReadonlyArray<unknown>) => {
      if (held) return held.query(source, parameters);
      return (taking ??= take(source)).then(({ query }) => query(source, parameters));
    }) as PostgresPoolClient['query'],
    release: () => {
      if (held) lanes.release(held.connection);
      else if (taking) void taking.then(({ connection }) => lanes.release(connection), () => undefined);
      held = undefined;
      taking = undefined;
    },
  };
}

import { type Expression, type ExpressionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';
import { BatchedCalls } from '../../db/batched-calls.js';
import { GOES_FIRST } from '../../db/pg-pool.js';
import { type Params, PreparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { countedLinks, type NavigationLink } from '../navigation.js';
import { type CallerColumns, callerColumnsSelection } from './caller-columns.js';
import type { RouteColumn } from './route-column.js';

/** One session asked for: its key, the route column's argument (0 without one) and the time it is asked at. */
export type SessionAsk = { key: string; argument: number; now: number };

/** The most sessions one PostgreSQL statement reads (BatchedCalls's `max`). */
const BATCH_MAX = 64;
/**
 * Statements of one route column's sessions in flight at once (BatchedCalls's `maxRuns`): pages that ask
 * meanwhile wait for the answer and go together in the next, so under load a round trip gathers
 * the asks of several turns. The crowd's statements carried about 7 sessions instead of 4 (2 in
 * flight: 4.3), and reads went up (docs/performance.md).
 */
const BATCH_RUNS = 1;

type From = ExpressionBuilder<Database, 'sessions' | 'users'>;

/** What features add to every session's statement: the navigation's links (their counts) and caller columns. */
export interface SessionAdditions {
  links: NavigationLink[];
  callers: CallerColumns;
}

/**
 * The session's columns: its user, the caller columns features added (some of them parts of the
 * view token), the navigation's counts and the route column's value for `argument`, all in the one statement that runs before every page.
 */
function sessionColumns(db: Kysely<Database>, eb: From, additions: SessionAdditions, route: RouteColumn | undefined, argument: Expression<number>) {
  return [
    'sessions.session_key',
    'sessions.session_data',
    'sessions.expire_date',
    'sessions.last_seen',
    'users.id',
    'users.username',
    'users.email',
    'users.password',
    'users.is_active',
    'users.is_admin',
    // The user's settings.
    'users.timezone', 'users.currency', 'users.language',
    'users.view_version',
    ...callerColumnsSelection(db, additions.callers.list(), sql.ref<number>('users.id')),
    ...countedLinks(additions.links).map((link, index) => link.count!.query(db, sql.ref<number>('users.id')).as(`navigation_${index}`)),
    // Not `users.id`: a route column's subquery that joins users (a note's author) would shadow it.
    (route ? route.column(db, sql.ref<number>('sessions.user_id'), argument) : sql<unknown>`null`).as('route_value'),
  ] as const;
}

/** One session by its key, live at `now`. `first`: on the way to a write (GOES_FIRST). */
function oneSession(additions: SessionAdditions, route: RouteColumn | undefined, first: boolean) {
  return new PreparedQuery((db, params: Params<SessionAsk>) =>
    db
      .selectFrom('sessions')
      .$if(first, (query) => query.modifyFront(sql.raw(GOES_FIRST)))
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select((eb) => sessionColumns(db, eb, additions, route, sql<number>`${params.argument}`))
      .where('sessions.session_key', '=', params.key)
      .where('sessions.expire_date', '>', params.now),
  );
}

export type SessionRow = NonNullable<Awaited<ReturnType<ReturnType<typeof oneSession>['executeTakeFirst']>>>;

/**
 * Many sessions in one PostgreSQL statement: the keys and arguments asked are a table, each
 * row's `position` says whose it is (a key asked twice, with two arguments, gives two rows).
 * Live at the earliest `now` asked: each asker checks its own.
 *
 * The table comes as one JSON parameter, not as arrays through `unnest`: the planner counts an
 * array's elements when it plans for the values (as PostgreSQL does for a prepared statement's
 * first five runs, and then whenever that comes out cheaper than its generic plan), but sees no
 * rows in a JSON text, so both plans expect the same number of sessions and the generic one is
 * kept. With `unnest`, one or two sessions asked (an instance that is not busy) always came out
 * cheaper than the generic plan's guess, and the note page's statement, whose route column takes
 * about 2.4 ms to plan and 0.4 ms to run, was planned again at every page.
 */
function manySessions(additions: SessionAdditions, route: RouteColumn | undefined) {
  return new PreparedQuery((db, params: Params<{ asked: string; now: number }>) =>
    db
      .selectFrom(sql<{ key: string; argument: number; position: number }>`json_to_recordset(${params.asked}::json)`.as<'asked'>(sql`asked(key text, argument bigint, position integer)`))
      .innerJoin('sessions', 'sessions.session_key', 'asked.key')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select((eb) => [...sessionColumns(db, eb, additions, route, sql.ref<number>('asked.argument')), 'asked.position'])
      .where('sessions.expire_date', '>', params.now),
  );
}

/**
 * Reads sessions with their statement, built once per route column. On PostgreSQL, the pages' reads
 * asked in the same turn of the event loop, or while the route column's last statement was out, go as
 * one statement (BatchedCalls): under a crowd every statement costs the process a send and a
 * wake-up, and the database a round of its protocol, more than the rows. A read on the way to a write, or inside a transaction, goes alone.
 */
export class SessionQueries {
  private readonly one = new Map<RouteColumn | undefined, ReturnType<typeof oneSession>>();
  private readonly first = new Map<RouteColumn | undefined, ReturnType<typeof oneSession>>();
  private readonly many = new Map<RouteColumn | undefined, BatchedCalls<SessionAsk, SessionRow | undefined>>();

  constructor(private readonly additions: SessionAdditions) {}

  read(db: Kysely<Database>, ask: SessionAsk, route: RouteColumn | undefined, writing: boolean): Promise<SessionRow | undefined> {
    const batched = !writing && !db.isTransaction && db.getExecutor().adapter instanceof PostgresAdapter;
    if (batched) return this.batch(db, route).call(ask);
    const statements = writing ? this.first : this.one;
    let statement = statements.get(route);
    if (!statement) statements.set(route, (statement = oneSession(this.additions, route, writing)));
    return statement.executeTakeFirst(db, ask);
  }

  /** The route column's batch, on the store's own database (never a transaction's: those go alone). */
  private batch(db: Kysely<Database>, route: RouteColumn | undefined) {
    let batch = this.many.get(route);
    if (!batch) {
      const statement = manySessions(this.additions, route);
      batch = new BatchedCalls(async (asks: readonly SessionAsk[]) => {
        const now = Math.min(...asks.map((ask) => ask.now));
        const asked = JSON.stringify(asks.map(({ key, argument }, position) => ({ key, argument, position })));
        const rows = await statement.execute(db, { asked, now });
        const answers: (SessionRow | undefined)[] = asks.map(() => undefined);
        for (const { position, ...row } of rows) {
          if (row.expire_date > asks[position]!.now) answers[position] = row;
        }
        return answers;
      }, BATCH_MAX, BATCH_RUNS);
      this.many.set(route, batch);
    }
    return batch;
  }
}

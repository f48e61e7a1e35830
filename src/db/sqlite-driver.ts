import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, SelectQueryNode } from 'kysely';

// A SQLite file is opened twice in each process: a reader, which answers every statement that
// changes nothing, and a writer, which runs transactions and writes one after another. The
// writer's lock is waited for here, between turns of the event loop, but for a first few
// milliseconds: with a long busy_timeout, a write that found the lock held (by the other worker,
// another instance, a CLI import) slept in SQLite's busy handler on the process's only thread,
// and every page of that process waited with it, up to 5 s. Reads in WAL mode need no lock and
// never wait for a writer.

/** How long a write waits for the write lock (this process's other writes, then SQLite's) before it fails with SQLITE_BUSY. */
export const WRITE_LOCK_WAIT_MS = 5_000;
/**
 * How long a write's first try waits inside SQLite (its busy handler sleeps 1 ms, then 2) for a
 * lock another process holds. The other worker's statements hold it for a fraction of a
 * millisecond, a few when that process is descheduled meanwhile: waiting here takes the lock as
 * soon as it is free, where a retry between turns came a whole turn of page reads later. A lock
 * held longer is waited for between turns, as before.
 */
export const WRITE_LOCK_BRIEF_WAIT_MS = 3;
/** Waits between tries at SQLite's write lock: a commit takes about a millisecond, so short ones first. */
const RETRY_DELAYS_MS = [1, 1, 2, 3, 5];
/** Prepared statements kept per connection, by SQL text (oldest out first). */
const STATEMENT_CACHE_SIZE = 500;
/** Statements that open or close a transaction by hand: the connection that runs one is the caller's alone. */
const TRANSACTION_CONTROL = /^\s*(begin|savepoint)\b/i;

/**
 * Kysely's SQLite driver prepares every query anew; compiling the same SQL again is most of the
 * cost of a small query. Prepared statements are kept by SQL text (bounded, oldest out first).
 * Safe because better-sqlite3 runs each statement to completion before the next one starts.
 */
function cacheStatements(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  }) as SQLite.Database['prepare'];
  return sqlite;
}

/** Opens a connection with the settings every one of ours has (WAL, foreign keys on, NORMAL sync). */
export function openConnection(path: string, busyTimeoutMs: number): SQLite.Database {
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
  return cacheStatements(sqlite);
}

/** Runs one statement as Kysely's own SQLite driver does. */
function run(statement: SQLite.Statement, parameters: readonly unknown[]): QueryResult<never> {
  if (statement.reader) return { rows: statement.all(parameters) as never[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

const isBusy = (error: unknown) => error instanceof SQLite.SqliteError && error.code === 'SQLITE_BUSY';
const lockTimeout = () => new SQLite.SqliteError('database is locked (the write lock was not free in time)', 'SQLITE_BUSY');

/**
 * The writer connection, lent to one caller at a time in the order they asked, each for at most
 * the time left before its deadline. A statement refused with SQLITE_BUSY (another process holds
 * the lock) has done nothing and is tried again after a short wait, until the deadline.
 */
class Writer {
  private held = false;
  private readonly waiting: { resolve(): void; reject(error: Error): void; timer: NodeJS.Timeout }[] = [];

  constructor(
    readonly sqlite: SQLite.Database,
    private readonly waitMs: number,
    private readonly briefWaitMs: number,
  ) {}

  /** The time a wait for the lock that starts now gives up at. */
  deadline(): number {
    return Date.now() + this.waitMs;
  }

  /** Resolves with the writer's deadline once this caller holds it. */
  async take(): Promise<number> {
    const deadline = this.deadline();
    if (!this.held) {
      this.held = true;
      return deadline;
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        resolve: () => (clearTimeout(waiter.timer), resolve()),
        reject,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(lockTimeout());
        }, this.waitMs),
      };
      this.waiting.push(waiter);
    });
    return deadline;
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next.resolve();
    else this.held = false;
  }

  /**
   * Runs `sql` on the writer. Its first try waits inside SQLite for up to briefWaitMs (the
   * connection's busy_timeout); while SQLite still says another process holds the lock, it tries
   * again between turns of the event loop, each of those tries without waiting inside SQLite.
   */
  async execute(compiled: CompiledQuery, deadline: number): Promise<QueryResult<never>> {
    const statement = this.sqlite.prepare(compiled.sql);
    const busy = (error: unknown) => {
      if (!isBusy(error)) throw error;
      if (Date.now() >= deadline) throw lockTimeout();
    };
    try {
      return run(statement, compiled.parameters);
    } catch (error) {
      busy(error);
    }
    this.sqlite.pragma('busy_timeout = 0');
    try {
      for (let attempt = 0; ; attempt += 1) {
        await sleep(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]!);
        try {
          return run(statement, compiled.parameters);
        } catch (error) {
          busy(error);
        }
      }
    } finally {
      this.sqlite.pragma(`busy_timeout = ${this.briefWaitMs}`);
    }
  }
}

/**
 * What Kysely holds as a connection. Until it writes, each statement goes to the shared reader;
 * from its first write (or its transaction) it holds the writer until it is released; a caller
 * that begins a transaction by hand (a dump's snapshot) gets a connection of its own.
 */
class Handle implements DatabaseConnection {
  private deadline = 0;
  private holdsWriter = false;
  private own: SQLite.Database | undefined;

  constructor(private readonly driver: TwoConnectionDriver) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.execute(compiled);
    // The wait counted from taking the writer was for its first statement; a later one outside a transaction waits afresh.
    this.deadline = 0;
    return result as QueryResult<R>;
  }

  private async execute(compiled: CompiledQuery): Promise<QueryResult<never>> {
    if (this.own) return run(this.own.prepare(compiled.sql), compiled.parameters);
    if (!this.holdsWriter) {
      if (TRANSACTION_CONTROL.test(compiled.sql)) {
        this.own = this.driver.openOwn();
        return this.execute(compiled);
      }
      const statement = this.driver.reader.prepare(compiled.sql);
      if (statement.readonly) return run(statement, compiled.parameters);
      await this.takeWriter();
    }
    return this.driver.writer.execute(compiled, this.deadline || this.driver.writer.deadline());
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error('SQLite streams only select queries');
    // An iteration keeps its connection busy across turns: it takes the writer, which no one else uses meanwhile.
    if (!this.holdsWriter && !this.own) await this.takeWriter();
    const sqlite = this.own ?? this.driver.writer.sqlite;
    for (const row of sqlite.prepare(compiled.sql).iterate(compiled.parameters)) yield { rows: [row as R] };
  }

  /** Takes the writer, unless this handle holds it already (it wrote, then began a transaction). */
  async takeWriter(): Promise<void> {
    if (this.holdsWriter) return;
    this.deadline = await this.driver.writer.take();
    this.holdsWriter = true;
  }

  release(): void {
    if (this.holdsWriter) {
      this.holdsWriter = false;
      if (this.driver.writer.sqlite.inTransaction) this.driver.writer.sqlite.exec('rollback');
      this.driver.writer.give();
    }
    this.own?.close();
    this.own = undefined;
  }
}

/**
 * Kysely's driver for a SQLite file, with a reader and a writer connection (above). Transactions
 * start with BEGIN IMMEDIATE: the write lock is taken at the start instead of at the first write,
 * where SQLite would fail at once with SQLITE_BUSY because the transaction's snapshot is already
 * stale.
 */
export class TwoConnectionDriver implements Driver {
  readonly reader: SQLite.Database;
  readonly writer: Writer;

  constructor(
    private readonly path: string,
    writeLockWaitMs: number,
    briefLockWaitMs = WRITE_LOCK_BRIEF_WAIT_MS,
  ) {
    // The reader waits inside SQLite in the rare cases a WAL reader must (another connection
    // recovering the log); the writer only for its first try's few milliseconds.
    this.writer = new Writer(openConnection(path, briefLockWaitMs), writeLockWaitMs, briefLockWaitMs);
    this.reader = openConnection(path, WRITE_LOCK_WAIT_MS);
  }

  openOwn(): SQLite.Database {
    return openConnection(this.path, WRITE_LOCK_WAIT_MS);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Handle(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const handle = connection as Handle;
    await handle.takeWriter();
    await handle.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as Handle).release();
  }

  async destroy(): Promise<void> {
    this.reader.close();
    this.writer.sqlite.close();
  }
}

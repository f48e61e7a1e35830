import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { tryLockKey } from '../../../db/locks.js';
import type { Database } from '../../../db/schema.js';
import type { BackgroundJob } from '../../../platform/background.js';
import { msgWith } from '../../../platform/i18n/index.js';
import { type BatchResult, BatchScheduler, type SchedulerLog, type SchedulerOptions } from '../../../platform/scheduler.js';
import { timeZoneOr, todayIn } from '../../../platform/time-zones.js';
import { resolveWallTime } from '../../../platform/wall-clock.js';
import type { Notifier } from '../../../services.js';
import { listAccess } from '../access.js';
import { TODO } from './kind.js';

// "Due today" and "overdue", once each per item: the to-do items table is the job table. Each
// open item with a due date has a moment the scheduler looks at it (`due_notice_at`, migration
// 0029): at once when it is new or its date, assignee or done state changed (notices.ts), then
// at the start of its due date and of the day after, in the time zone of whom it tells (its
// assignee, or its owner when it has none, or when the assignee can no longer read the list).
// What was told is `due_notice`; an item told it is overdue is not looked at again. The zone is
// read when the item is looked at, so a moment worked out in a zone since changed is checked
// against the new one before anything is told.

/** The key only one instance's batch holds at a time, on PostgreSQL (a SQLite transaction holds the one write lock). */
const LOCK_KEY = 'todo-due-notices';
/** 0 nothing told yet, 1 "due today", 2 "overdue". */
type Told = 0 | 1 | 2;

interface Deps {
  db: Kysely<Database>;
  notifications: Notifier;
  log: SchedulerLog;
}

interface LookedAt {
  id: number;
  text: string;
  due_date: string | null;
  due_notice: number;
  list_id: number;
  list_title: string;
  owner_id: number;
  owner_zone: string;
  assignee_id: number | null;
  assignee_zone: string | null;
  assignee_reads: unknown;
}

/**
 * Every instance runs one; a batch is one transaction that first takes LOCK_KEY without waiting,
 * so that with several instances on one database one of them tells at a time and the others
 * leave it (`busy`). A batch claims at most `batchSize` items (locked, on PostgreSQL, past a
 * person's edit of one of them), and in that transaction writes their notifications, mail and
 * markers: an item is told each thing once, whichever instance runs, across restarts.
 */
export class DueNotices implements BackgroundJob {
  private readonly loop: BatchScheduler;

  constructor(
    private readonly deps: Deps,
    options: Partial<SchedulerOptions> = {},
  ) {
    this.loop = new BatchScheduler({ runBatch: (now) => this.runBatch(now), earliestDue: () => this.earliestDue(), failure: 'due-date notices round failed' }, deps.log, options);
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One transaction: looks at up to a batch of items whose moment has come; how many, or `busy`. */
  async runBatch(now = Date.now()): Promise<BatchResult> {
    const { db, notifications } = this.deps;
    const outcome = await db.transaction().execute(async (trx) => {
      if (!(await tryLockKey(trx, LOCK_KEY))) return 'busy' as const;
      const rows = await this.claim(trx, now);
      const told: number[] = [];
      for (const row of rows) {
        const readerId = row.assignee_id !== null && truthy(row.assignee_reads) ? row.assignee_id : row.owner_id;
        const zone = timeZoneOr(readerId === row.assignee_id ? row.assignee_zone : row.owner_zone);
        if (row.due_date === null) {
          await trx.updateTable('todo_items').set({ due_notice_at: null }).where('id', '=', row.id).execute();
          continue;
        }
        const today = todayIn(zone, new Date(now));
        const state: Told = today > row.due_date ? 2 : today === row.due_date ? 1 : 0;
        if (state > row.due_notice) {
          const key = state === 2 ? 'todo.notice_overdue' : 'todo.notice_due';
          const text = msgWith(key, { text: row.text, list: row.list_title });
          await notifications.add(trx, [readerId], { kind: state === 2 ? 'todo.overdue' : 'todo.due', text, link: `/todo/${row.list_id}/`, mail: true }, now);
          told.push(readerId);
        }
        const done = Math.max(state, row.due_notice) as Told;
        await trx.updateTable('todo_items').set({ due_notice: done, due_notice_at: nextLook(row.due_date, done, zone, now) }).where('id', '=', row.id).execute();
      }
      return { looked: rows.length, told };
    });
    if (outcome === 'busy') return outcome;
    notifications.announce(outcome.told);
    return outcome.looked;
  }

  /** When the next open item is to be looked at, epoch ms (Infinity: none). */
  async earliestDue(): Promise<number> {
    const row = await this.deps.db
      .selectFrom('todo_items')
      .select('due_notice_at')
      .where('is_done', '=', 0)
      .where('due_notice_at', 'is not', null)
      .orderBy('due_notice_at')
      .limit(1)
      .executeTakeFirst();
    return row?.due_notice_at ?? Infinity;
  }

  /** The open items whose moment has come, earliest first, with whom each would tell and in which zone. */
  private claim(trx: Kysely<Database>, now: number): Promise<LookedAt[]> {
    const assigneeReads = listAccess(trx, TODO)
      .visibleLists(sql.ref<number>('todo_items.assignee_id'))
      .select(sql.ref<number>('todo_lists.id').as('id'))
      .where(sql.ref<number>('todo_lists.id'), '=', sql.ref<number>('todo_items.list_id'));
    let query = trx
      .selectFrom('todo_items')
      .innerJoin('todo_lists', 'todo_lists.id', 'todo_items.list_id')
      .innerJoin('users as owner', 'owner.id', 'todo_lists.owner_id')
      .leftJoin('users as assignee', 'assignee.id', 'todo_items.assignee_id')
      .select(['todo_items.id', 'todo_items.text', 'todo_items.due_date', 'todo_items.due_notice', 'todo_items.list_id', 'todo_lists.title as list_title', 'todo_lists.owner_id'])
      .select(['owner.timezone as owner_zone', 'todo_items.assignee_id', 'assignee.timezone as assignee_zone'])
      .select((eb) => eb.exists(assigneeReads).as('assignee_reads'))
      .where('todo_items.is_done', '=', 0)
      .where('todo_items.due_notice_at', '<=', now)
      .orderBy('todo_items.due_notice_at')
      .orderBy('todo_items.id')
      .limit(this.loop.options.batchSize);
    // An item a person is changing now is left for the next batch, rather than waited for.
    if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate(['todo_items']).skipLocked();
    return query.execute();
  }
}

/** When to look at the item again once `told` was told of it: the start of its date, of the day after, or never. */
function nextLook(dueDate: string, told: Told, zone: string, now: number): number | null {
  if (told === 2) return null;
  const day = told === 1 ? dayAfter(dueDate) : dueDate;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const start = resolveWallTime({ year, month, day: date, hour: 0, minute: 0, second: 0 }, zone).instant;
  // Never sooner than a minute: a zone's odd midnight must not make a loop of it.
  return Math.max(start, now + 60_000);
}

function dayAfter(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/** An EXISTS as either database returns it: true or false on PostgreSQL, 1 or 0 on SQLite. */
const truthy = (value: unknown) => value === true || Number(value) === 1;

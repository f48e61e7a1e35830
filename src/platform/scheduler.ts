import type { BackgroundJob } from './background.js';

// The loop of a job table's scheduler (a note's reminders, a to-do item's due-date notices): it
// looks at the table when its earliest row falls due, and at least every `pollMs` for rows other
// instances added; each batch is one transaction of the feature's, which claims what it handles.
// What the rows are and what a batch does is the feature's; the timing is this loop's.

export interface SchedulerOptions {
  /** How often the table is looked at for rows added on other instances. */
  pollMs: number;
  /** Rows claimed per transaction. */
  batchSize: number;
  /** Batches per round before the loop lets other work run. */
  batchesPerRound: number;
  /** How long a shutdown waits for the round under way (its transaction rolls back otherwise). */
  stopWaitMs: number;
}

export const DEFAULT_SCHEDULER_OPTIONS: SchedulerOptions = { pollMs: 30_000, batchSize: 50, batchesPerRound: 20, stopWaitMs: 1_000 };

/** A due row left after a short batch is one another instance holds: looked at again this soon, not in a spin. */
const LOCKED_RETRY_MS = 50;

/** What a batch did: how many rows it handled, or `busy` when another instance is running this work (look again at the next poll). */
export type BatchResult = number | 'busy';

export interface ScheduledWork {
  /** One transaction: claims and handles up to `batchSize` due rows. */
  runBatch(now: number): Promise<BatchResult>;
  /** When the earliest row still to handle falls due, epoch ms (Infinity: none). */
  earliestDue(): Promise<number>;
  /** Logged when a round fails (it is retried at the next poll). */
  failure: string;
}

export interface SchedulerLog {
  error(object: object, message: string): void;
}

/**
 * Runs a job table's batches: once at start (what fell due while no instance ran), then when its
 * earliest row falls due (`added` brings that forward for a row added here), and at least every
 * poll. A round runs batches until one is short or the round's share is used. It never throws.
 */
export class BatchScheduler implements BackgroundJob {
  readonly options: SchedulerOptions;
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires, epoch ms (Infinity: none set). */
  private timerAt = Infinity;
  private round: Promise<number> | undefined;
  /** A row added during a round falls due then. */
  private addedDueAt = Infinity;
  private started = false;
  private stopped = false;

  constructor(
    private readonly work: ScheduledWork,
    private readonly log: SchedulerLog,
    options: Partial<SchedulerOptions> = {},
  ) {
    this.options = { ...DEFAULT_SCHEDULER_OPTIONS, ...options };
  }

  /** Handles what fell due while no instance ran, then keeps watching. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.wakeAt(Date.now());
  }

  /** A row due at `at` was added here: wake up then rather than at the next poll. */
  added(at: number): void {
    if (!this.started || this.stopped) return;
    if (this.round) this.addedDueAt = Math.min(this.addedDueAt, at);
    else if (at < this.timerAt) this.wakeAt(at);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.round) await Promise.race([this.round, new Promise((resolve) => setTimeout(resolve, this.options.stopWaitMs).unref())]);
  }

  private wakeAt(at: number): void {
    clearTimeout(this.timer);
    const delay = Math.min(Math.max(0, at - Date.now()), this.options.pollMs);
    this.timerAt = Date.now() + delay;
    this.timer = setTimeout(() => void this.runRound(), delay);
    // The loop alone does not keep a process alive.
    this.timer.unref();
  }

  private async runRound(): Promise<void> {
    if (this.round || this.stopped) return;
    this.timerAt = Infinity;
    this.addedDueAt = Infinity;
    this.round = this.runBatches().catch((error: unknown) => {
      this.log.error({ err: error }, this.work.failure);
      return Date.now() + this.options.pollMs;
    });
    const nextDue = await this.round;
    this.round = undefined;
    if (!this.stopped) this.wakeAt(Math.min(nextDue, this.addedDueAt));
  }

  /** Batches until none is full or the round's share is used; returns when to look again. */
  private async runBatches(): Promise<number> {
    for (let batch = 0; batch < this.options.batchesPerRound && !this.stopped; batch += 1) {
      const result = await this.work.runBatch(Date.now());
      if (result === 'busy') return Date.now() + this.options.pollMs;
      if (result < this.options.batchSize) return Math.max(await this.work.earliestDue(), Date.now() + LOCKED_RETRY_MS);
    }
    return Date.now();
  }
}

/** A loop that runs beside the server (a scheduler): started once it listens, stopped when it closes. */
export interface BackgroundJob {
  start(): void;
  /** Stops the loop; waits a bounded time for work under way. Never throws. */
  stop(): Promise<void>;
}

/**
 * The background loops features add while the app is built. server.ts starts them once the
 * server listens; tests start them when they need them; closing the app stops them.
 */
export class BackgroundJobs {
  private readonly jobs: BackgroundJob[] = [];
  private started = false;

  add(job: BackgroundJob): void {
    this.jobs.push(job);
    if (this.started) job.start();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const job of this.jobs) job.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.jobs.map((job) => job.stop()));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Loops such as the reminder scheduler: started by server.ts (and by tests that need them), stopped on close. */
    background: BackgroundJobs;
  }
}

import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';

/** A cluster worker running a test fixture, with every message it sent the primary. */
export interface FixtureWorker<R> {
  worker: Worker;
  reports: R[];
}

/**
 * Forks `count` cluster workers of this test process running `fixture` (a path under
 * test/fixtures/), and waits until each has reported `{ ready: true }`.
 */
export async function forkFixtureWorkers<R extends { ready?: boolean }>(fixture: string, count: number): Promise<FixtureWorker<R>[]> {
  cluster.setupPrimary({ exec: fileURLToPath(new URL(`./fixtures/${fixture}`, import.meta.url)), execArgv: ['--import', 'tsx'], silent: true });
  const workers: FixtureWorker<R>[] = [];
  for (let i = 0; i < count; i++) {
    const worker = cluster.fork();
    const reports: R[] = [];
    worker.on('message', (report: R) => reports.push(report));
    workers.push({ worker, reports });
  }
  const deadline = Date.now() + 20_000;
  while (!workers.every(({ reports }) => reports.some((report) => report.ready))) {
    if (Date.now() > deadline) throw new Error('cluster workers did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return workers;
}

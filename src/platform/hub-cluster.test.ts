import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HubEvent } from './hub.js';
import { relayHubEvents } from './hub-cluster.js';

interface Report {
  ready?: boolean;
  delivered?: HubEvent;
}

const workers: { worker: Worker; reports: Report[] }[] = [];

beforeAll(async () => {
  cluster.setupPrimary({ exec: fileURLToPath(new URL('../../test/fixtures/hub-cluster-worker.ts', import.meta.url)), execArgv: ['--import', 'tsx'], silent: true });
  relayHubEvents(cluster);
  for (let i = 0; i < 3; i++) {
    const worker = cluster.fork();
    const reports: Report[] = [];
    worker.on('message', (report: Report) => reports.push(report));
    workers.push({ worker, reports });
  }
  const deadline = Date.now() + 20_000;
  while (!workers.every(({ reports }) => reports.some((report) => report.ready))) {
    if (Date.now() > deadline) throw new Error('cluster workers did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(() => {
  for (const { worker } of workers) worker.kill();
});

it('delivers an event published in one cluster worker once in every worker, through the primary', async () => {
  const event: HubEvent = { type: 'group.members_removed', groupId: 7, userIds: [3] };
  workers[0]!.worker.send({ publish: event });
  const delivered = (reports: Report[]) => reports.filter((report) => report.delivered).map((report) => report.delivered);
  await expect.poll(() => workers.map(({ reports }) => delivered(reports).length), { timeout: 5_000 }).toEqual([1, 1, 1]);
  for (const { reports } of workers) expect(delivered(reports)).toEqual([event]);
});

import cluster from 'node:cluster';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HubEvent } from './hub.js';
import { type FixtureWorker, forkFixtureWorkers } from '../../../test/index.js';
import { relayHubEvents } from './hub-cluster.js';

interface Report {
  ready?: boolean;
  delivered?: HubEvent;
}

let workers: FixtureWorker<Report>[] = [];

beforeAll(async () => {
  relayHubEvents(cluster);
  workers = await forkFixtureWorkers<Report>('hub-cluster-worker.ts', 3);
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

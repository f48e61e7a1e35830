import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { type Envelope, Hub, type HubEvent } from './hub.js';
import { ClusterTransport } from './hub-cluster.js';
import { RedisTransport, publishOnce } from './hub-redis.js';
import { type HubTransport, MemoryTransport } from './transport.js';

/**
 * Redis pub/sub when REDIS_URL is set, so instances behind one proxy share chat; else the
 * cluster primary's relay in a cluster worker (relayHubEvents); else this process only.
 */
export function createHub(config: Config, log: FastifyBaseLogger): Hub {
  const hubLog = log.child({ component: 'hub' });
  let transport: HubTransport;
  if (config.redisUrl) transport = new RedisTransport(config.redisUrl, hubChannel(config), hubLog);
  else if (cluster.isWorker) transport = new ClusterTransport();
  else transport = new MemoryTransport();
  return new Hub(transport, hubLog);
}

function hubChannel(config: Config): string {
  return `${config.redisPrefix}events`;
}

/**
 * Tells the running instances about a change made outside them (a CLI command ending sessions),
 * through Redis when REDIS_URL is set: false without it. Then nothing can reach them (a cluster's
 * relay is the primary's own), and the sweep at each ping interval closes the affected sockets.
 */
export async function publishFromOutside(config: Config, event: HubEvent): Promise<boolean> {
  if (!config.redisUrl) return false;
  const envelope: Envelope = { origin: randomUUID(), event };
  await publishOnce(config.redisUrl, hubChannel(config), JSON.stringify(envelope));
  return true;
}

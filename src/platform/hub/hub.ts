import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { ClusterTransport } from './hub-cluster.js';
import { RedisTransport, publishOnce } from './hub-redis.js';

/** A chat message as every client sees it (PRODUCT.md section 4). */
export interface ChatMessagePayload {
  message_id: number;
  author: string;
  content: string;
  /** ISO 8601, UTC. */
  timestamp: string;
}

/** A to-do or shopping list, for the live list events. */
export interface LiveListRef {
  kind: 'todo' | 'shopping';
  id: number;
}

/** An item row as JSON (numbers, strings, nulls); the list kind's live module reads it back. */
export type LiveItemRow = Record<string, string | number | null>;

/** What the list shows of all its items after the change: counts, and the shopping list's total. */
export interface LiveListSummary {
  items: number;
  /** Items not yet done (bought). */
  open: number;
  /** The shopping list's estimated total (exact decimal text) and its items without a price: each viewer's page words it. */
  total?: { amount: string; unpriced: number };
}

/** Everything the real-time side needs to hear about, from any instance. */
export type HubEvent =
  | { type: 'chat.message'; groupId: number; message: ChatMessagePayload }
  | { type: 'group.members_removed'; groupId: number; userIds: number[] }
  | { type: 'group.deleted'; groupId: number }
  | { type: 'sessions.ended'; sessionKeys: string[] }
  /** These users' unread notification counts moved (platform/notifications.ts). */
  | { type: 'notifications.changed'; userIds: number[] }
  /** An item of a list was added or changed: its row as the page reads it, so receivers need no query. */
  | { type: 'list.item'; list: LiveListRef; item: LiveItemRow; summary: LiveListSummary }
  | { type: 'list.item_removed'; list: LiveListRef; itemId: number; summary: LiveListSummary }
  /** Who may read or tick the list may have changed (a share, its group, its deletion): sockets re-check. */
  | { type: 'list.access_changed'; list: LiveListRef };

export type HubListener = (event: HubEvent) => void;

/** Carries encoded events to the other instances; never back to the sender. */
export interface HubTransport {
  readonly name: string;
  start(receive: (encoded: string) => void): Promise<void>;
  send(encoded: string): Promise<void>;
  close(): Promise<void>;
  /** For /healthz, where the transport depends on a server: rejects when it cannot carry events now. */
  check?(): Promise<void>;
}

const FAILURE_LOG_INTERVAL_MS = 10_000;

interface Envelope {
  origin: string;
  event: HubEvent;
}

/**
 * Services publish events; the hub hands each one to the listeners of this instance at once
 * (so local sockets keep working when Redis is away) and to the transport for the others.
 */
export class Hub {
  private readonly listeners = new Set<HubListener>();
  /** Tells our own events apart when the transport echoes them back (Redis does). */
  private readonly origin = randomUUID();
  /** Fan-out failures are logged once per interval with a count, not once per chat message. */
  private failures = { count: 0, loggedAt: 0 };

  constructor(
    private readonly transport: HubTransport,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    await this.transport.start((encoded) => this.receive(encoded));
    this.log.debug({ transport: this.transport.name }, 'real-time hub started');
  }

  subscribe(listener: HubListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: HubEvent): void {
    this.deliver(event);
    const envelope: Envelope = { origin: this.origin, event };
    this.transport.send(JSON.stringify(envelope)).catch((error: unknown) => this.sendFailed(error));
  }

  private sendFailed(error: unknown): void {
    this.failures.count += 1;
    const now = Date.now();
    if (now - this.failures.loggedAt < FAILURE_LOG_INTERVAL_MS) return;
    this.log.warn({ err: error, events: this.failures.count }, 'events not fanned out to other instances');
    this.failures = { count: 0, loggedAt: now };
  }

  close(): Promise<void> {
    this.listeners.clear();
    return this.transport.close();
  }

  /** Whether events reach the other instances right now (the Redis connections, for /healthz). */
  async check(): Promise<void> {
    await this.transport.check?.();
  }

  private receive(encoded: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(encoded) as Envelope;
    } catch {
      this.log.warn('ignored a hub event that is not JSON');
      return;
    }
    if (envelope.origin === this.origin || !envelope.event) return;
    this.deliver(envelope.event);
  }

  private deliver(event: HubEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log.error({ err: error, event: event.type }, 'hub listener failed');
      }
    }
  }
}

/** A single process: the hub has already delivered every event locally, so nothing travels. */
export class MemoryTransport implements HubTransport {
  readonly name = 'memory';

  async start(): Promise<void> {}

  async send(): Promise<void> {}

  async close(): Promise<void> {}
}

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

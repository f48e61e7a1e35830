import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { HubTransport } from './transport.js';

/**
 * The events the hub carries, by type. The platform declares its own; each feature declares the
 * events it sends beside the code that sends them, by adding to this interface:
 *
 *     declare module '../../platform/hub/hub.js' {
 *       interface HubEvents {
 *         'group.deleted': { groupId: number };
 *       }
 *     }
 *
 * Every event goes to every instance as JSON, so its fields are plain data.
 */
export interface HubEvents {
  /** Sessions that ended (logout, password change...): sockets opened with them close. */
  'sessions.ended': { sessionKeys: string[] };
}

/** One event: its type and that type's fields. */
export type HubEvent = { [Type in keyof HubEvents]: { type: Type } & HubEvents[Type] }[keyof HubEvents];

export type HubListener = (event: HubEvent) => void;

const FAILURE_LOG_INTERVAL_MS = 10_000;

/** What travels: the event, and which instance sent it. */
export interface Envelope {
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

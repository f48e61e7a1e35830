import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';
import type { HubTransport } from './transport.js';

const MAX_RETRY_DELAY_MS = 5_000;
/** How long start-up waits for Redis before serving local sockets only (it keeps trying). */
const START_TIMEOUT_MS = 5_000;

/**
 * Redis pub/sub on one channel: one connection publishes, one subscribes (a subscribed
 * connection can do nothing else). Lost connections are retried with back-off and logged;
 * ioredis subscribes again after a reconnect.
 */
export class RedisTransport implements HubTransport {
  readonly name = 'redis';
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private closing = false;

  constructor(
    url: string,
    private readonly channel: string,
    private readonly log: FastifyBaseLogger,
  ) {
    const options: RedisOptions = {
      retryStrategy: (attempt) => Math.min(attempt * 200, MAX_RETRY_DELAY_MS),
      connectionName: `hub:${channel}`,
    };
    // Events published while Redis is away are given up after two retries (logged by the hub):
    // local delivery has already happened, and clients catch up from history on reconnect.
    this.publisher = new Redis(url, { ...options, maxRetriesPerRequest: 2 });
    // The subscription waits for Redis however long it takes.
    this.subscriber = new Redis(url, { ...options, maxRetriesPerRequest: null });
    this.watch(this.publisher, 'publisher');
    this.watch(this.subscriber, 'subscriber');
  }

  private watch(connection: Redis, role: string): void {
    let lost = false;
    connection.on('error', (error: Error) => {
      if (!this.closing) this.log.warn({ role, err: error.message }, 'redis connection error');
    });
    connection.on('reconnecting', (delay: number) => {
      lost = true;
      if (!this.closing) this.log.warn({ role, delay }, 'redis connection lost; reconnecting');
    });
    connection.on('ready', () => {
      if (lost) this.log.info({ role }, 'redis connection restored');
      lost = false;
    });
  }

  async start(receive: (encoded: string) => void): Promise<void> {
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) receive(message);
    });
    const subscribed = this.subscriber.subscribe(this.channel).then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), START_TIMEOUT_MS);
    });
    const ok = await Promise.race([subscribed, timedOut]);
    clearTimeout(timer);
    if (!ok) this.log.error({ channel: this.channel }, 'redis not reachable yet: serving local sockets only until it is');
  }

  async send(encoded: string): Promise<void> {
    await this.publisher.publish(this.channel, encoded);
  }

  /** Both connections up (a subscriber that lost its connection hears nothing), and Redis answers. */
  async check(): Promise<void> {
    for (const [role, connection] of [['publisher', this.publisher], ['subscriber', this.subscriber]] as const) {
      if (connection.status !== 'ready') throw new Error(`redis ${role} connection is ${connection.status}`);
    }
    await this.publisher.ping();
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(
      [this.publisher, this.subscriber].map(async (connection) => {
        // QUIT would wait in the offline queue for a Redis that is away: just drop the socket then.
        if (connection.status !== 'ready') return connection.disconnect();
        await connection.quit().catch(() => connection.disconnect());
      }),
    );
  }
}

/** How long a command run outside the app waits for Redis to take its one event. */
const PUBLISH_ONCE_TIMEOUT_MS = 3_000;

/**
 * Publishes one message on the channel and disconnects: for a command run outside the app (the
 * CLI), which has no hub. Resolves to the number of subscribers (instances) that got it;
 * rejects when Redis has not taken it within PUBLISH_ONCE_TIMEOUT_MS.
 */
export async function publishOnce(url: string, channel: string, encoded: string): Promise<number> {
  const connection = new Redis(url, {
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => (attempt > 2 ? null : attempt * 200),
    connectionName: `cli:${channel}`,
  });
  // A failure is reported by the publish that it makes fail, or by the timeout.
  connection.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not take the event within ${PUBLISH_ONCE_TIMEOUT_MS} ms`)), PUBLISH_ONCE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([connection.publish(channel, encoded), timedOut]);
  } finally {
    clearTimeout(timer);
    connection.disconnect();
  }
}

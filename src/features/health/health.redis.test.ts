import { randomBytes } from 'node:crypto';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createTestDatabase, testConfig } from '../../../test/index.js';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A port on which nothing listens. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
    });
  });
}

/** A TCP relay to Redis that the test can cut and restore, as a network fault would. */
class RedisRelay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target: URL,
  ) {}

  start(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 6379), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    return new Promise((resolve) => this.server!.listen(this.port, '127.0.0.1', () => resolve()));
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
  }
}

async function healthUntil(app: Awaited<ReturnType<typeof appWithRedis>>, status: number): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await app.inject({ url: '/healthz', headers: { host: 'localhost' } });
    if (response.statusCode === status) return response.json();
    if (Date.now() > deadline) throw new Error(`/healthz stayed ${response.statusCode}: ${response.body}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The real app with REDIS_URL set, on a database of its own. */
async function appWithRedis(redisUrl: string) {
  const testDb = await createTestDatabase();
  cleanups.push(() => testDb.drop());
  const config = testConfig({ DATABASE_URL: testDb.url, REDIS_URL: redisUrl, REDIS_PREFIX: `groupnotes-health-${randomBytes(4).toString('hex')}:` });
  const database = openDatabase(config.databaseUrl, { poolSize: 1 });
  cleanups.push(() => database.close());
  await migrateToLatest(database.db);
  const app = await buildApp(config, { database });
  cleanups.push(() => app.close());
  return app;
}

describe('GET /healthz with REDIS_URL set', () => {
  it('checks Redis through the hub that owns the connections: 200 when it answers', async () => {
    const app = await appWithRedis(REDIS_URL);
    const response = await app.inject({ url: '/healthz', headers: { host: 'localhost' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  it('answers 503 naming Redis when it cannot be reached, while the database is fine', async () => {
    const nothingThere = `redis://127.0.0.1:${await closedPort()}`;
    const app = await appWithRedis(nothingThere);
    const response = await app.inject({ url: '/healthz', headers: { host: 'localhost' } });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'failing', checks: { database: 'ok', redis: 'failing' } });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('turns 503 when the Redis connection is lost after start, and 200 again once it is back', async () => {
    const relay = new RedisRelay(await closedPort(), new URL(REDIS_URL));
    await relay.start();
    cleanups.push(() => relay.cut());
    const app = await appWithRedis(`redis://127.0.0.1:${relay.port}`);
    expect(await healthUntil(app, 200)).toMatchObject({ checks: { redis: 'ok' } });
    await relay.cut();
    expect(await healthUntil(app, 503)).toMatchObject({ status: 'failing', checks: { database: 'ok', redis: 'failing' } });
    await relay.start();
    expect(await healthUntil(app, 200)).toMatchObject({ status: 'ok', checks: { redis: 'ok' } });
  });
});

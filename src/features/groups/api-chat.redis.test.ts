import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { type DatabaseHandle, openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { ApiClient, createToken } from '../../../test/api.js';
import { createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { TestBrowser, createGroup, createUser, testConfig } from '../../../test/helpers.js';
import { connectChat, listen } from '../../../test/ws.js';

// The API's writes reach chat sockets on another instance through Redis, as the pages' and the
// socket's own do: two instances on one database, on a channel prefix of this run only.
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const PREFIX = `groupnotes-test-${randomBytes(6).toString('hex')}:`;

interface Instance {
  app: FastifyInstance;
  database: DatabaseHandle;
  address: string;
}

let testDb: TestDatabase;
let one: Instance;
let two: Instance;

async function startInstance(url: string): Promise<Instance> {
  const config = testConfig({ DATABASE_URL: url, REDIS_URL, REDIS_PREFIX: PREFIX });
  const database = openDatabase(config.databaseUrl, { poolSize: 4 });
  const app = await buildApp(config, { database });
  return { app, database, address: await listen(app) };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  const migrating = openDatabase(testDb.url, { poolSize: 1 });
  await migrateToLatest(migrating.db);
  await migrating.close();
  one = await startInstance(testDb.url);
  two = await startInstance(testDb.url);
});

afterAll(async () => {
  for (const instance of [one, two]) {
    await instance.app.close();
    await instance.database.close();
  }
  await testDb.drop();
});

/** Alice (owner, with a token on instance 1) and Bob (member, with a chat socket on instance 2). */
async function setUp() {
  const db = one.database.db;
  const alice = await createUser(db);
  const bob = await createUser(db);
  const group = await createGroup(db, alice, [bob]);
  const api = new ApiClient(one.app, { token: await createToken(db, alice) });
  const browser = new TestBrowser(two.app);
  await browser.login(bob.username);
  const onTwo = await connectChat(two.address, `/ws/groups/${group.id}/chat/`, { sessionKey: browser.cookies.get('sessionid') });
  return { alice, bob, group, api, onTwo };
}

describe('the JSON API on one instance, a chat socket on another', () => {
  it('delivers a message posted through the API to the socket on instance 2', async () => {
    const { alice, group, api, onTwo } = await setUp();
    const response = await api.post(`/api/v1/groups/${group.id}/messages/`, { content: 'posted on one' });
    expect(response.statusCode).toBe(201);
    const [frame] = await onTwo.waitFor((item) => item.type === 'message');
    expect(frame).toEqual({ type: 'message', ...response.data });
    expect(frame).toMatchObject({ author: alice.username, content: 'posted on one' });
    onTwo.close();
  });

  it('closes the socket on instance 2 within a second of the member’s removal through the API on instance 1', async () => {
    const { bob, group, api, onTwo } = await setUp();
    expect((await api.delete(`/api/v1/groups/${group.id}/members/${bob.id}/`)).statusCode).toBe(204);
    const closed = await Promise.race([onTwo.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000))]);
    expect(closed?.code).toBe(4403);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../../db/database.js';
import { migrateToLatest } from '../../../db/migrate.js';
import { SessionStore, sessionAuthHash } from '../../../platform/chain/session.js';
import { type ChatClient, connectChat, createGroup, createTestDatabase, createUser, type ServeProcess, spawnServe, TEST_SECRET, type TestDatabase } from '../../../../test/index.js';

// `serve` with two cluster workers and no Redis: the primary relays hub events between them.
const CLIENTS = 6;
let testDb: TestDatabase;
let server: ServeProcess | undefined;
let address: string;
let groupId: number;
const sessionKeys: string[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  const database = openDatabase(testDb.url, { poolSize: 1 });
  await migrateToLatest(database.db);
  const users = [];
  for (let i = 0; i < CLIENTS; i++) users.push(await createUser(database.db));
  groupId = (await createGroup(database.db, users[0]!, users.slice(1))).id;
  const sessions = new SessionStore(database.db, 3600);
  for (const user of users) sessionKeys.push((await sessions.create(user.id, sessionAuthHash(TEST_SECRET, user.password), 'test')).key);
  await database.close();

  const env: NodeJS.ProcessEnv = { DATABASE_URL: testDb.url, SECRET_KEY: TEST_SECRET, WEB_CONCURRENCY: '2', REDIS_URL: '' };
  server = await spawnServe(env);
  address = server.address;
});

afterAll(async () => {
  await server?.stop();
  await testDb.drop();
});

it('delivers a message to members connected to every worker', async () => {
  const clients: ChatClient[] = [];
  // Connections are handed to the workers in turn, so these land on both.
  for (const sessionKey of sessionKeys) clients.push(await connectChat(address, `/ws/groups/${groupId}/chat/`, { sessionKey }));
  clients[0]!.send({ content: 'across workers' });
  for (const client of clients) {
    const [message] = await client.waitFor((frame) => frame.type === 'message');
    expect(message!.content).toBe('across workers');
  }
  for (const client of clients) client.close();
});

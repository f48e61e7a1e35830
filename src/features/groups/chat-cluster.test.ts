import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { SessionStore, sessionAuthHash } from '../../platform/session.js';
import { createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { TEST_SECRET, createGroup, createUser } from '../../../test/helpers.js';
import { type ChatClient, connectChat } from '../../../test/ws.js';

// `serve` with two cluster workers and no Redis: the primary relays hub events between them.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLIENTS = 6;
let testDb: TestDatabase;
let server: ChildProcess;
let address: string;
let groupId: number;
const sessionKeys: string[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

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

  const port = await freePort();
  address = `127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: testDb.url, SECRET_KEY: TEST_SECRET, PORT: String(port), WEB_CONCURRENCY: '2', LOG_LEVEL: 'warn', NODE_ENV: 'test' };
  delete env.REDIS_URL;
  server = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], { cwd: ROOT, env, stdio: 'ignore' });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(`http://${address}/accounts/login/`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error('the cluster did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
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

import { readFileSync, readdirSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatClient, connectChat, createGroup, createTestDatabase, createUser, rawUpgrade, type ServeProcess, spawnServe, TEST_SECRET, type TestDatabase, upgradeRequest, waitUntil } from '../test/index.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import type { Database } from './db/schema.js';
import { Outbox } from './platform/mail/outbox.js';
import { SessionStore, sessionAuthHash } from './platform/chain/session.js';
import { SHUTDOWN_MARGIN_MS } from './platform/process/shutdown.js';

// Once, after SIGTERM the primary and both workers were still running ten
// minutes later. A shutdown is bounded whatever the clients do: drain (0 s outside production)
// plus SHUTDOWN_MARGIN_MS, then what is left is cut and the processes exit.

/** Time for the test itself to see the exit (signal delivery, process teardown). */
const SLACK_MS = 1_000;

let testDb: TestDatabase | undefined;
let server: ServeProcess | undefined;
let workerPids: number[] = [];
/** Closes what a test opened. */
const cleanups: (() => void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  // A test that failed leaves nothing running behind it.
  for (const pid of [server?.child.pid, ...workerPids]) if (pid && isRunning(pid)) process.kill(pid, 'SIGKILL');
  server = undefined;
  workerPids = [];
  await testDb?.drop();
  testDb = undefined;
});

/** Running, not a zombie left for a parent that has not reaped it yet. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The cluster workers of a `serve` primary (not, say, the esbuild service tsx may start). */
function workerPidsOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes('serve');
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function serveWithMember(env: NodeJS.ProcessEnv, prepare?: (db: Kysely<Database>) => Promise<void>): Promise<{ sessionKey: string; groupId: number }> {
  testDb = await createTestDatabase();
  const database = openDatabase(testDb.url, { poolSize: 1 });
  await migrateToLatest(database.db);
  await prepare?.(database.db);
  const user = await createUser(database.db);
  const groupId = (await createGroup(database.db, user)).id;
  const { key } = await new SessionStore(database.db, 3600).create(user.id, sessionAuthHash(TEST_SECRET, user.password), 'test');
  await database.close();
  server = await spawnServe({ DATABASE_URL: testDb.url, SECRET_KEY: TEST_SECRET, REDIS_URL: '', ...env });
  return { sessionKey: key, groupId };
}

/** Every kind of client a shutdown must not wait for, a few times over (to reach every worker). */
async function openStubbornClients(address: string, sessionKey: string, groupId: number): Promise<void> {
  const headers = { Host: address, Origin: `http://${address}`, Cookie: `sessionid=${sessionKey}` };
  const chat = upgradeRequest(`/ws/groups/${groupId}/chat/`, headers);
  const chats: ChatClient[] = [];
  for (let i = 0; i < 2; i++) {
    // An open chat socket, whose client answers the close handshake.
    chats.push(await connectChat(address, `/ws/groups/${groupId}/chat/`, { sessionKey }));
    // A chat socket whose client never reads again, nor answers anything.
    const deaf = await rawUpgrade(address, chat);
    await waitUntil(() => deaf.text().startsWith('HTTP/1.1 101'), 'the handshake was accepted');
    deaf.socket.pause();
    // A chat socket whose client sent its FIN and reads nothing more.
    const halfClosed = await rawUpgrade(address, chat);
    await waitUntil(() => halfClosed.text().startsWith('HTTP/1.1 101'), 'the handshake was accepted');
    halfClosed.socket.pause();
    halfClosed.socket.end();
    // The malformed upgrade of the report, answered by a redirect, its client silent.
    const malformed = await rawUpgrade(address, upgradeRequest('/ws/groups/%2F/chat', headers));
    // A request in flight that never completes: its body is announced and not sent.
    const slow = await rawUpgrade(address, `POST /accounts/login/ HTTP/1.1\r\nHost: ${address}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nusername=`);
    for (const socket of [deaf.socket, halfClosed.socket, malformed.socket, slow.socket]) cleanups.push(() => socket.destroy());
  }
  for (const chat of chats) cleanups.push(() => chat.ws.terminate());
  await new Promise((resolve) => setTimeout(resolve, 200));
}

async function msToExitAfterSigterm(): Promise<number> {
  const child = server!.child;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = Date.now();
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_MARGIN_MS + 5_000))]);
  return child.exitCode === null && child.signalCode === null ? Infinity : Date.now() - started;
}

describe('SIGTERM ends the server within drain + margin, whatever its clients do', () => {
  it('a single process with open, deaf and half-closed chat sockets and a request in flight exits in time', async () => {
    const { sessionKey, groupId } = await serveWithMember({ WEB_CONCURRENCY: '1' });
    await openStubbornClients(server!.address, sessionKey, groupId);
    expect(await msToExitAfterSigterm()).toBeLessThan(SHUTDOWN_MARGIN_MS + SLACK_MS);
  }, 60_000);

  it('a cluster: the primary and every worker have exited in time', async () => {
    const { sessionKey, groupId } = await serveWithMember({ WEB_CONCURRENCY: '2' });
    workerPids = workerPidsOf(server!.child.pid!);
    expect(workerPids).toHaveLength(2);
    await openStubbornClients(server!.address, sessionKey, groupId);
    expect(await msToExitAfterSigterm()).toBeLessThan(SHUTDOWN_MARGIN_MS + SLACK_MS);
    expect(workerPids.filter(isRunning)).toEqual([]);
  }, 60_000);
});

describe('SIGTERM while a mail is being sent', () => {
  it('ends cleanly (exit 0) in time, though the mail server never answers', async () => {
    const mailSockets: Socket[] = [];
    const silent = createServer((socket) => mailSockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => {
      for (const socket of mailSockets) socket.destroy();
      silent.close();
    });
    const smtpUrl = `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    await serveWithMember({ WEB_CONCURRENCY: '1', SMTP_URL: smtpUrl }, (db) => new Outbox(db, testDb!.url.startsWith('sqlite') ? 'sqlite' : 'postgres').enqueue([{ to: 'a@example.test', subject: 'Hi', text: 'Hello' }]));
    await waitUntil(() => mailSockets.length > 0, 'the sender connected to the mail server', 10_000);
    expect(await msToExitAfterSigterm()).toBeLessThan(SHUTDOWN_MARGIN_MS + SLACK_MS);
    expect(server!.child.exitCode).toBe(0);
  }, 60_000);
});

describe('a cluster worker that cannot exit by itself', () => {
  it('is killed by the primary at the bound, and the primary exits', async () => {
    await serveWithMember({ WEB_CONCURRENCY: '2' });
    workerPids = workerPidsOf(server!.child.pid!);
    expect(workerPids).toHaveLength(2);
    // Stopped, it does not even see the primary's SIGTERM: only a SIGKILL ends it.
    process.kill(workerPids[0]!, 'SIGSTOP');
    expect(await msToExitAfterSigterm()).toBeLessThan(SHUTDOWN_MARGIN_MS + SLACK_MS);
    await waitUntil(() => workerPids.every((pid) => !isRunning(pid)), 'every worker has ended', 1_000);
  }, 60_000);
});

/** Whether a TCP connection to `address` (host:port) is accepted: false once it is refused. */
function accepts(address: string): Promise<boolean> {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const socket = connect(Number(port), host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('a cluster at SIGTERM', () => {
  // Before, the cluster listened until its last worker had stopped listening: a worker busy or
  // stuck kept the port open, and what it was handed then was lost (a proxy's POST, a 502).
  it('stops listening at once, before any worker drains, even while a worker cannot act', async () => {
    await serveWithMember({ WEB_CONCURRENCY: '2' });
    workerPids = workerPidsOf(server!.child.pid!);
    expect(workerPids).toHaveLength(2);
    expect(await accepts(server!.address)).toBe(true);
    process.kill(workerPids[0]!, 'SIGSTOP');
    server!.child.kill('SIGTERM');
    // The stopped worker keeps the primary running until the bound; the port is closed long before.
    await waitUntil(async () => !(await accepts(server!.address)), 'connections are refused', 1_000);
    expect(server!.child.exitCode).toBeNull();
  }, 60_000);

  it('a worker sent SIGTERM by itself leaves the turn, drains and is replaced; every request meanwhile is answered', async () => {
    // In production, where draining waits for the open connections (this client's kept-alive ones).
    await serveWithMember({ WEB_CONCURRENCY: '2', NODE_ENV: 'production', ALLOWED_HOSTS: '127.0.0.1', PUBLIC_URL: 'https://notes.example.com', SMTP_URL: 'off', LOG_LEVEL: 'info' });
    // Both in the turn: with none ready, the port is closed (a proxy tries another instance).
    await waitUntil(() => server!.output().includes('"ready":2'), 'both workers are ready', 20_000);
    const primary = server!.child.pid!;
    workerPids = workerPidsOf(primary);
    expect(workerPids).toHaveLength(2);
    process.kill(workerPids[0]!, 'SIGTERM');
    const statuses = new Set<number>();
    for (const until = Date.now() + 2_000; Date.now() < until; ) statuses.add((await fetch(`http://${server!.address}/healthz`)).status);
    expect([...statuses]).toEqual([200]);
    await waitUntil(() => !isRunning(workerPids[0]!) && workerPidsOf(primary).length === 2, 'another worker took its place', 10_000);
    workerPids = workerPidsOf(primary);
  }, 60_000);
});

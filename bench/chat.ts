import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { SessionStore, sessionAuthHash } from '../src/platform/chain/session.js';
import { BENCH_SECRET, type RunningProcess, scratch, startApp } from './lib.js';
import { identityKey } from '../src/platform/identity-key.js';

// Group chat: members of one group connected over real sockets to the real server in its own
// process; senders take turns, each well under the per-connection rate limit; latency is from
// send to receipt at every member (sender included), on this process's clock.

/** Members never log in by password: their sessions are written straight into the database. */
const UNUSED_PASSWORD_HASH = 'pbkdf2_sha256$1$bench$unused';
const CHUNK = 500;

async function seed(databaseUrl: string, members: number): Promise<{ groupId: number; sessionKeys: string[] }> {
  const database = openDatabase(databaseUrl);
  const { db } = database;
  try {
    await migrateToLatest(db);
    const now = Date.now();
    const ids: number[] = [];
    for (let start = 0; start < members; start += CHUNK) {
      const values = Array.from({ length: Math.min(CHUNK, members - start) }, (_, i) => ({
        username: `member${start + i}`,
        username_key: identityKey(`member${start + i}`),
        email: '',
        password: UNUSED_PASSWORD_HASH,
        date_joined: now,
      }));
      ids.push(...(await db.insertInto('users').values(values).returning('id').execute()).map((row) => row.id));
    }
    const group = await db.insertInto('groups').values({ name: 'bench', name_key: identityKey('bench'), owner_id: ids[0]!, created_at: now }).returning('id').executeTakeFirstOrThrow();
    for (let start = 0; start < ids.length; start += CHUNK) {
      await db
        .insertInto('group_members')
        .values(ids.slice(start, start + CHUNK).map((id) => ({ group_id: group.id, user_id: id, joined_at: now })))
        .execute();
    }
    const sessions = new SessionStore(db, 86_400);
    const authHash = sessionAuthHash(BENCH_SECRET, UNUSED_PASSWORD_HASH);
    const sessionKeys: string[] = [];
    for (const id of ids) sessionKeys.push((await sessions.create(id, authHash, 'bench')).key);
    return { groupId: group.id, sessionKeys };
  } finally {
    await database.close();
  }
}

/** Opens `keys.length` sockets, `parallel` handshakes at a time, spread over a few loopback source addresses. */
async function connectAll(app: RunningProcess, groupId: number, keys: string[], onMessage?: (data: Buffer) => void, parallel = 200): Promise<WebSocket[]> {
  const sockets: WebSocket[] = new Array(keys.length);
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const index = next++;
      sockets[index] = await new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${app.port}/ws/groups/${groupId}/chat/`, {
          headers: { cookie: `sessionid=${keys[index]}` },
          origin: app.url,
          localAddress: `127.0.0.${1 + (index % 8)}`,
          // The measuring side should cost as little as it can: its time is counted as latency.
          skipUTF8Validation: true,
          perMessageDeflate: false,
        });
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
        ws.once('unexpected-response', (_request, response) => reject(new Error(`handshake refused: ${response.statusCode}`)));
        if (onMessage) ws.on('message', (data) => onMessage(data as Buffer));
      });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return sockets;
}

function closeAll(sockets: WebSocket[]): void {
  for (const ws of sockets) ws.terminate();
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const MESSAGE_TYPE = Buffer.from('{"type":"message"');
const CONTENT = Buffer.from('"content":"b');

/** The k of a `message` frame whose content is `b<k>`, read without decoding the whole frame. */
function messageNumber(data: Buffer): number {
  if (data.compare(MESSAGE_TYPE, 0, MESSAGE_TYPE.length, 0, MESSAGE_TYPE.length) !== 0) return -1;
  let at = data.indexOf(CONTENT);
  if (at < 0) return -1;
  let k = 0;
  for (at += CONTENT.length; data[at]! >= 48 && data[at]! <= 57; at++) k = k * 10 + data[at]! - 48;
  return k;
}

/** Two seconds of traffic before the measured part, so that figures are of a warmed-up server. */
const WARM_UP_SECONDS = 2;

async function delivery(members: number, perSecond: number, seconds: number): Promise<void> {
  const { dir, cleanup } = scratch();
  const databaseUrl = `sqlite:${join(dir, 'chat.sqlite3')}`;
  const { groupId, sessionKeys } = await seed(databaseUrl, members);
  const app = await startApp({ DATABASE_URL: databaseUrl });
  const warmUp = perSecond * WARM_UP_SECONDS;
  const total = warmUp + perSecond * seconds;
  const sentAt = new Float64Array(total);
  const received = new Uint32Array(total);
  const latencies = new Float64Array((total - warmUp) * members);
  let count = 0;
  try {
    const sockets = await connectAll(app, groupId, sessionKeys, (data) => {
      const k = messageNumber(data);
      if (k < 0) return;
      received[k]! += 1;
      if (k >= warmUp) latencies[count++] = performance.now() - sentAt[k]!;
    });
    await sleep(500);
    const interval = 1000 / perSecond;
    const started = performance.now();
    for (let k = 0; k < total; k++) {
      await sleep(started + k * interval - performance.now());
      sentAt[k] = performance.now();
      // Senders take turns: member k mod N, so each sends perSecond / N messages a second.
      sockets[k % members]!.send(JSON.stringify({ content: `b${k}` }));
    }
    const expected = (total - warmUp) * members;
    const deadline = performance.now() + 5_000;
    while (count < expected && performance.now() < deadline) await sleep(50);
    const sorted = latencies.slice(0, count).sort();
    let lost = 0;
    for (const got of received) lost += Math.max(0, members - got);
    console.log(
      `  ${String(members).padStart(5)} members, ${perSecond} msg/s for ${seconds} s (after ${WARM_UP_SECONDS} s warm-up): ` +
        `${count}/${expected} deliveries measured, lost ${lost} of ${total * members}, ` +
        `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted[sorted.length - 1]?.toFixed(1)} ms`,
    );
    closeAll(sockets);
  } finally {
    await app.stop();
    cleanup();
  }
}

function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

async function idleConnections(connections: number): Promise<void> {
  const warmUp = 100;
  const { dir, cleanup } = scratch();
  const databaseUrl = `sqlite:${join(dir, 'idle.sqlite3')}`;
  const { groupId, sessionKeys } = await seed(databaseUrl, warmUp + connections);
  // One process, so that its RSS is the memory of every connection (a cluster primary holds none).
  const app = await startApp({ DATABASE_URL: databaseUrl, WEB_CONCURRENCY: '1' });
  try {
    // Warm-up sockets load the code paths first, so the delta is the connections' own memory.
    const first = await connectAll(app, groupId, sessionKeys.slice(0, warmUp));
    await sleep(1_000);
    const before = rssBytes(app.child.pid!);
    const started = performance.now();
    const rest = await connectAll(app, groupId, sessionKeys.slice(warmUp));
    const connectSeconds = (performance.now() - started) / 1000;
    await sleep(3_000);
    const after = rssBytes(app.child.pid!);
    const open = rest.filter((ws) => ws.readyState === WebSocket.OPEN).length;
    console.log(
      `  ${connections} idle connections on one instance: ${open} open after ${connectSeconds.toFixed(1)} s of handshakes ` +
        `(${(connections / connectSeconds).toFixed(0)}/s); server RSS ${(before / 2 ** 20).toFixed(0)} -> ${(after / 2 ** 20).toFixed(0)} MiB = ` +
        `${((after - before) / connections / 1024).toFixed(1)} KiB per connection`,
    );
    closeAll([...first, ...rest]);
  } finally {
    await app.stop();
    cleanup();
  }
}

export async function run(): Promise<void> {
  console.log('\n## Group chat over WebSocket: delivery latency from send to receipt at every member');
  // Latency tails depend on what else the machine runs: say how busy it was.
  console.log(`  (load average at start: ${loadavg().map((value) => value.toFixed(2)).join(' ')} on ${availableParallelism()} cores)`);
  await delivery(100, 50, 10);
  await delivery(1_000, 10, 10);
  console.log('\n## Idle chat connections: server memory per connection');
  await idleConnections(10_000);
}

import WebSocket from 'ws';
import { openDatabase } from '../src/db/database.js';
import { chosenConfigurations } from './configs.js';
import { type CrowdUser, CROWD_CSRF, seedCrowd } from './crowd-seed.js';
import { type RunningProcess, scratch, startApp, summarize } from './lib.js';
import { BENCH_ITERATIONS } from './notes-seed.js';

// The crowd's live-list phase: 100 viewers (WebSocket clients) of one shopping list
// shared with the whole crowd, while ticks arrive at 20 a second through the page's own form
// (POST /shopping/items/<pk>/toggle/, as a browser without JavaScript sends it, the owner and
// 4 tick users in turn). Measured: from just before each tick's POST to the moment its update
// reaches each viewer, every viewer, every tick. Each tick is of a different item, so the item's
// id names the tick. A viewer that misses a tick fails the benchmark.

export const LIVE_VIEWERS = 100;
export const LIVE_TICKS_PER_SECOND = 20;
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 10);
const TIMEOUT_MS = 10_000;
/** Users the list is shared with `tick`: they tick in turn with its owner. */
const TICK_USERS = 4;

export interface LiveListFigures {
  ticks: number;
  deliveries: number;
  p50: number;
  p99: number;
}

/** One shopping list of the first user's, shared with every other user of the crowd (the first few may tick), with an item per tick to come. */
async function seedList(databaseUrl: string, crowd: CrowdUser[], items: number): Promise<{ listId: number; itemIds: number[] }> {
  const database = openDatabase(databaseUrl, { poolSize: 1 });
  try {
    const now = Date.now();
    const list = await database.db
      .insertInto('shopping_lists')
      .values({ owner_id: crowd[0]!.id, title: 'Crowd shop', store_name: 'The market', group_id: null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto('shopping_list_shares')
      .values(crowd.slice(1).map((user, index) => ({ list_id: list.id, user_id: user.id, permission: index < TICK_USERS ? 'tick' : 'read' })))
      .execute();
    const rows = Array.from({ length: items }, (_, i) => ({ list_id: list.id, name: `thing ${i}`, quantity_milli: 1000, unit: '', estimated_price_cents: 100 + i, is_done: 0, created_at: now }));
    const itemIds: number[] = [];
    for (let start = 0; start < rows.length; start += 200) {
      const inserted = await database.db.insertInto('shopping_items').values(rows.slice(start, start + 200)).returning('id').execute();
      itemIds.push(...inserted.map((row) => row.id));
    }
    return { listId: list.id, itemIds };
  } finally {
    await database.close();
  }
}

function openViewer(app: RunningProcess, listId: number, user: CrowdUser, onItem: (id: number, at: number) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${app.port}/ws/shopping/${listId}/`, { headers: { cookie: user.cookie }, origin: app.url, perMessageDeflate: false });
    ws.on('message', (data) => {
      const at = performance.now();
      const frame = JSON.parse(String(data)) as { type: string; id?: number };
      if (frame.type === 'item' && typeof frame.id === 'number') onItem(frame.id, at);
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_request, response) => reject(new Error(`live list handshake refused: ${response.statusCode}`)));
  });
}

/** Runs the phase against a running app whose database holds the crowd; throws if any tick fails or goes missing. */
export async function liveListPhase(app: RunningProcess, databaseUrl: string, crowd: CrowdUser[]): Promise<LiveListFigures> {
  const ticks = LIVE_SECONDS * LIVE_TICKS_PER_SECOND;
  const { listId, itemIds } = await seedList(databaseUrl, crowd, ticks);
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  const arrived = new Map<number, number>();
  let allArrived: () => void = () => {};
  const done = new Promise<void>((resolve) => (allArrived = resolve));
  const onItem = (id: number, at: number) => {
    const sent = sentAt.get(id);
    if (sent === undefined) return;
    latencies.push(at - sent);
    arrived.set(id, (arrived.get(id) ?? 0) + 1);
    if (latencies.length === ticks * LIVE_VIEWERS) allArrived();
  };
  const viewers = await Promise.all(Array.from({ length: LIVE_VIEWERS }, (_, v) => openViewer(app, listId, crowd[v % crowd.length]!, onItem)));
  const tickers = crowd.slice(0, 1 + TICK_USERS);
  const problems: string[] = [];
  try {
    const started = performance.now();
    const posts: Promise<void>[] = [];
    for (const [index, itemId] of itemIds.entries()) {
      const due = started + (index * 1000) / LIVE_TICKS_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const ticker = tickers[index % tickers.length]!;
      sentAt.set(itemId, performance.now());
      posts.push(
        fetch(`${app.url}/shopping/items/${itemId}/toggle/`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: ticker.cookie, origin: app.url },
          body: new URLSearchParams({ csrfmiddlewaretoken: CROWD_CSRF }).toString(),
        }).then((response) => {
          if (response.status !== 302) problems.push(`tick of item ${itemId}: ${response.status}`);
        }),
      );
    }
    await Promise.all(posts);
    if (problems.length) throw new Error(`live list ticks failed: ${problems.slice(0, 3).join('; ')}`);
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS))]);
    const missing = itemIds.filter((id) => (arrived.get(id) ?? 0) < LIVE_VIEWERS).length;
    if (missing) throw new Error(`live list: ${missing} of ${ticks} ticks did not reach all ${LIVE_VIEWERS} viewers`);
  } finally {
    for (const viewer of viewers) viewer.terminate();
  }
  const { p50, p99 } = summarize(latencies, LIVE_SECONDS);
  return { ticks, deliveries: latencies.length, p50, p99 };
}

/** `npm run bench live-lists`: this phase alone, on a fresh crowd, per configuration (BENCH_CONFIGS). */
export async function run(): Promise<void> {
  console.log(`\n## Live lists: ${LIVE_VIEWERS} viewers of one shopping list, ${LIVE_TICKS_PER_SECOND} ticks/s for ${LIVE_SECONDS} s through the page's form`);
  const { dir, cleanup } = scratch();
  try {
    for (const configuration of chosenConfigurations(['sqlite', 'postgres'])) {
      const { env, drop } = await configuration.prepare(dir, `live-${configuration.name}`);
      let app: RunningProcess | undefined;
      try {
        const crowd = await seedCrowd(env.DATABASE_URL!);
        app = await startApp({ ...env, PBKDF2_ITERATIONS: String(BENCH_ITERATIONS) });
        const live = await liveListPhase(app, env.DATABASE_URL!, crowd);
        console.log(`  ${configuration.label}: ${live.deliveries} deliveries of ${live.ticks} ticks, p50 ${live.p50.toFixed(1)} ms, p99 ${live.p99.toFixed(1)} ms`);
      } finally {
        await app?.stop();
        await drop();
      }
    }
  } finally {
    cleanup();
  }
}

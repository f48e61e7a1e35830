import { availableParallelism, loadavg } from 'node:os';
import { CROWD_CSRF, type CrowdUser, GROUP_SIZE, NOTES_EACH, USERS, seedCrowd } from './crowd-seed.js';
import { type WriteRound, type Writers, startWriters } from './crowd-writers.js';
import { CROWD_CONFIGURATIONS, type Configuration, chosenConfigurations } from './configs.js';
import { type Measurement, type RunningProcess, measure, probe, residentMb, scratch, startApp, startBare, summarize } from './lib.js';
import { type Round, alternateRuns, compareWithBare } from './rounds.js';
import { BENCH_ITERATIONS } from './notes-seed.js';
import type { WrkRequest } from './wrk.js';
import { CLIENT_HEADROOM, formatShare, shareOfBare } from './ceiling.js';
import { defaultWorkers } from '../src/config.js';
import { LIVE_TICKS_PER_SECOND, LIVE_VIEWERS, type LiveListFigures, liveListPhase } from './crowd-live-lists.js';

// The crowd benchmark, the figure that counts: 60 users read while others write, as
// an instance is really used. Reads at 32 connections, each as a random user's session: the
// note list (70%) or one of the notes that user may see (30%). Meanwhile 8 writers edit their
// own notes through the edit form, 10 edits a second in all, and 6 members post 5 chat messages
// a second over WebSockets. The ceiling: bare node:http sending one user's list bytes from
// memory, asked by the same request generator, in alternating rounds. The app runs as deployed
// (WEB_CONCURRENCY as set, else its default, defaultWorkers in src/config.ts): kept pages are per
// worker and chat events cross workers, which a one-process run would hide (beside the local
// PostgreSQL of a 2-core machine the default is one worker, and chat still goes through Redis);
// bare node gets the same cores.
// Then the JSON API: the same crowd reads GET /api/v1/notes/ with each user's token,
// the writers still writing, against bare node sending that JSON. Last, live lists: 100
// viewers of one shopping list over WebSockets, 20 ticks a second, time from tick to every viewer;
// and one page in a loop, nothing else running: one user's /notes/ and the login page against bare.

/** Seconds of load on each side (app, bare node) per configuration, split into the rounds. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
/**
 * The phases run after the closed-loop reads, all by default: `open` (a fixed rate), `api` (the
 * JSON API), `live` (live lists), `loops` (one page in a loop). BENCH_PHASES=reads runs the reads alone, as for a profile.
 */
const PHASES = new Set((process.env.BENCH_PHASES ?? 'reads,open,api,live,loops').split(',').map((phase) => phase.trim()));
const CONNECTIONS = 32;
const LIST_SHARE = 0.7;
const WRITERS = 8;
const EDITS_PER_SECOND = 10;
const CHAT_PER_SECOND = 5;
const CHATTERS_PER_GROUP = 2;
const API_PATH = '/api/v1/notes/';
/**
 * The open-loop phase's reads a second, the same for every configuration so that they compare: a
 * busy instance's load, well under what any configuration serves here, once the load generator's
 * own work (node:http's client costs far more a request than wrk) is on the same two cores.
 */
const OPEN_RATE = Number(process.env.BENCH_OPEN_RATE ?? 400);
const OPEN_SECONDS = Math.max(5, Math.round(SECONDS / 4));
/** Connections the open loop may open: enough that a request never waits in the load generator for one. */
const OPEN_SOCKETS = 256;

type CrowdMeasurement = Measurement & { writes: WriteRound };

interface Row {
  label: string;
  reads: number;
  readP99: number;
  editP99: number;
  chatPerSecond: number;
  baseline: Measurement;
  /** `GET /api/v1/notes/` with each user's token, against bare node sending that JSON. */
  api?: { reads: number; bare: number; readP99: number };
  /** The same reads at OPEN_RATE, sent on schedule; bare node at that rate too. */
  open?: { p50: number; p99: number; editP99: number; bareP50: number; bareP99: number };
  live?: LiveListFigures;
  /** One user's /notes/ and the login page in a loop: [app, bare] requests/s. */
  loops?: { list: [number, number]; login: [number, number] };
  /** Resident memory of the app's processes after the crowd, in MB, and milliseconds from start to its first answer. */
  rssMb: number;
  startMs: number;
}

const random = (count: number) => Math.floor(Math.random() * count);

/** A read as a random user of the crowd: the list, or a note that user may see. */
function crowdRead(crowd: CrowdUser[]): { path: string; headers: Record<string, string> } {
  const user = crowd[random(crowd.length)]!;
  const path = Math.random() < LIST_SHARE ? '/notes/' : `/notes/${user.visible[random(user.visible.length)]}/`;
  return { path, headers: { cookie: user.cookie } };
}

/** The reads wrk sends in turn: crowdRead drawn this many times (wrk's script holds them). */
const DRAWN = 10_000;

function crowdRequests(crowd: CrowdUser[]): WrkRequest[] {
  return Array.from({ length: DRAWN }, () => crowdRead(crowd));
}

/** Every request as a random user of the crowd, through the JSON API with that user's token. */
function apiRequests(crowd: CrowdUser[]): WrkRequest[] {
  return crowd.map((user) => ({ path: API_PATH, headers: { authorization: `Bearer ${user.token}` } }));
}

/** Any read but a 200 fails the benchmark: the figures would be of error pages. */
function checkReads(what: string, m: Pick<Measurement, 'errors' | 'non2xx' | 'statusCodes'>): void {
  const wrong = Object.entries(m.statusCodes ?? {}).filter(([code]) => code !== '200');
  if (m.errors || m.non2xx || wrong.length) throw new Error(`${what}: ${m.errors} errors, ${m.non2xx} non-2xx, statuses ${JSON.stringify(m.statusCodes)}`);
}

/** Every edit must be saved (302 to the note's page) and every chat message come back to its sender. */
function checkWrites({ edits, chat }: WriteRound): void {
  const saved = edits.statuses['302'] ?? 0;
  if (saved !== edits.sent || edits.problems.length) throw new Error(`edits: ${saved} of ${edits.sent} saved; ${edits.problems.join('; ')}`);
  if (chat.confirmed !== chat.sent || chat.problems.length) throw new Error(`chat: ${chat.confirmed} of ${chat.sent} came back; ${chat.problems.join('; ')}`);
}

/** Before measuring: the pages are what they should be (50 notes listed, a group note readable, another group's not). */
async function checkPages(app: RunningProcess, crowd: CrowdUser[]): Promise<{ body: string; contentType: string }> {
  const get = (user: CrowdUser, path: string) => fetch(app.url + path, { headers: { cookie: user.cookie } });
  for (const user of [crowd[0]!, crowd[GROUP_SIZE + 5]!, crowd.at(-1)!]) {
    const list = await get(user, '/notes/');
    const shown = ((await list.text()).match(/class="note-title"/g) ?? []).length;
    if (list.status !== 200 || shown !== 50) throw new Error(`/notes/ for ${user.username}: ${list.status}, ${shown} notes instead of 50`);
    const friend = crowd.find((other) => other.groupId === user.groupId && other.id !== user.id)!;
    const stranger = crowd.find((other) => other.groupId !== user.groupId)!;
    const shared = friend.own.find((note) => note.groupId !== null)!;
    const hidden = stranger.own.find((note) => note.groupId !== null)!;
    const [seen, unseen] = [(await get(user, `/notes/${shared.id}/`)).status, (await get(user, `/notes/${hidden.id}/`)).status];
    if (seen !== 200 || unseen !== 404) throw new Error(`${user.username}: a group note answered ${seen}, another group's ${unseen}`);
  }
  const page = await get(crowd[0]!, '/notes/');
  return { body: await page.text(), contentType: page.headers.get('content-type') ?? 'text/html; charset=utf-8' };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
/** Latencies of a few milliseconds, as the open loop's are. */
const fine = (value: number) => `${value.toFixed(1)} ms`;
const rate = (value: number) => Math.round(value).toLocaleString('en');

function printRound({ ours, baseline }: Round<CrowdMeasurement>, index: number, phase = ''): void {
  const { edits, chat, seconds } = ours.writes;
  const editP99 = summarize(edits.latencies, seconds).p99;
  console.log(
    `  ${phase}round ${index + 1} (${index % 2 === 0 ? 'groupnotes first' : 'bare first'}): groupnotes ${rate(ours.rps)} reads/s, p99 ${ms(ours.p99)}; ` +
      `bare ${rate(baseline.rps)} req/s, p99 ${ms(baseline.p99)}; ${formatShare(ours.rps, baseline.rps)}; ` +
      `${edits.sent} edits saved, p99 ${ms(editP99)}; ${chat.confirmed} chat messages (${(chat.confirmed / seconds).toFixed(1)}/s)`,
  );
}

/**
 * The closed loop's p99 is mostly its own queue (Little's law, in the README). The same reads at
 * a fixed rate, each sent on schedule whether or not earlier ones are back, the writers writing:
 * the latency of an instance that is busy, not overrun. Bare node at that rate shows what the load
 * generator and the machine add by themselves. The first seconds open the connections and are not counted.
 */
async function openLoop(crowd: CrowdUser[], appUrl: string, bareUrl: string, load: Writers): Promise<NonNullable<Row['open']>> {
  const openReads = (seconds: number) => ({ rate: OPEN_RATE, seconds, sockets: OPEN_SOCKETS, next: () => crowdRead(crowd) });
  await probe(appUrl, openReads(2));
  const [open, openWrites] = await Promise.all([probe(appUrl, openReads(OPEN_SECONDS)), load.run(OPEN_SECONDS)]);
  checkReads('groupnotes reads at a fixed rate', open);
  checkWrites(openWrites);
  await probe(bareUrl, openReads(2));
  const bareOpen = await probe(bareUrl, openReads(OPEN_SECONDS));
  checkReads('bare node:http at a fixed rate', bareOpen);
  const editP99 = summarize(openWrites.edits.latencies, openWrites.seconds).p99;
  console.log(
    `  open loop, ${rate(OPEN_RATE)} reads/s for ${OPEN_SECONDS} s: groupnotes p50 ${fine(open.p50)}, p99 ${fine(open.p99)}, ` +
      `${openWrites.edits.sent} edits saved, p99 ${fine(editP99)}; bare p50 ${fine(bareOpen.p50)}, p99 ${fine(bareOpen.p99)}`,
  );
  return { p50: open.p50, p99: open.p99, editP99, bareP50: bareOpen.p50, bareP99: bareOpen.p99 };
}

async function runConfiguration(configuration: Configuration, dir: string): Promise<Row> {
  console.log(`\n### ${configuration.label}`);
  const { env, drop } = await configuration.prepare(dir, `crowd-${configuration.name}`);
  let app: RunningProcess | undefined;
  let bare: RunningProcess | undefined;
  let bareApi: RunningProcess | undefined;
  let writers: Writers | undefined;
  try {
    const started = Date.now();
    const crowd = await seedCrowd(env.DATABASE_URL!);
    const workers = process.env.WEB_CONCURRENCY ?? defaultWorkers(env.DATABASE_URL!, process.env);
    console.log(`  seeded ${USERS} users, ${USERS * NOTES_EACH} notes in ${((Date.now() - started) / 1000).toFixed(1)} s; ${workers} HTTP worker(s)`);
    // The per-token API limit off, as chat's is for load tests: 60 tokens share thousands of reads a second.
    app = await startApp({ ...env, PBKDF2_ITERATIONS: String(BENCH_ITERATIONS), API_RATE_PER_SECOND: '0' });
    const page = await checkPages(app, crowd);
    bare = await startBare(page.body, dir, page.contentType);
    console.log(`  bare node:http sends ${crowd[0]!.username}'s list, ${page.body.length.toLocaleString('en')} bytes, whatever is asked`);
    const writing = Array.from({ length: WRITERS }, (_, w) => crowd[Math.floor((w * USERS) / WRITERS) + 1]!);
    const chatting = Array.from({ length: USERS / GROUP_SIZE }, (_, g) => crowd.slice(g * GROUP_SIZE + 10, g * GROUP_SIZE + 10 + CHATTERS_PER_GROUP)).flat();
    writers = await startWriters({
      url: app.url,
      writers: writing.map((user) => ({ cookie: user.cookie, notes: user.own })),
      editsPerSecond: EDITS_PER_SECOND,
      chatters: chatting.map((user) => ({ cookie: user.cookie, groupId: user.groupId })),
      chatPerSecond: CHAT_PER_SECOND,
      csrf: CROWD_CSRF,
    });
    const requests = crowdRequests(crowd);
    const [appUrl, bareUrl, load] = [app.url, bare.url, writers];
    const result = await alternateRuns(
      async (duration): Promise<CrowdMeasurement> => {
        const [reads, writes] = await Promise.all([measure(appUrl, { connections: CONNECTIONS, duration, requests }), load.run(duration)]);
        checkReads('groupnotes reads', reads);
        checkWrites(writes);
        return { ...reads, writes };
      },
      async (duration) => {
        // The same request generator: the load generator does the same work per request for both.
        const reads = await measure(bareUrl, { connections: CONNECTIONS, duration, requests });
        checkReads('bare node:http', reads);
        return reads;
      },
      { rounds: ROUNDS, seconds: SECONDS, warmUp: 3, onRound: printRound },
    );
    const open = PHASES.has('open') ? await openLoop(crowd, appUrl, bareUrl, load) : undefined;
    let api: Row['api'];
    if (PHASES.has('api')) {
      // The API's share: the same crowd and writers, reads through GET /api/v1/notes/ with tokens,
      // against bare node sending one user's answer (a second bare server, so each ceiling sends its own bytes).
      const apiPage = await fetch(app.url + API_PATH, { headers: { authorization: `Bearer ${crowd[0]!.token}` } });
      if (apiPage.status !== 200) throw new Error(`${API_PATH} with a token: ${apiPage.status}`);
      bareApi = await startBare(await apiPage.text(), dir, 'application/json; charset=utf-8');
      const [tokenRequests, bareApiUrl] = [apiRequests(crowd), bareApi.url];
      console.log(`  the JSON API: ${API_PATH} as a random user, with their token`);
      const result = await alternateRuns(
        async (duration): Promise<CrowdMeasurement> => {
          const [reads, writes] = await Promise.all([measure(appUrl, { connections: CONNECTIONS, duration, requests: tokenRequests }), load.run(duration)]);
          checkReads('groupnotes API reads', reads);
          checkWrites(writes);
          return { ...reads, writes };
        },
        async (duration) => {
          const reads = await measure(bareApiUrl, { connections: CONNECTIONS, duration, requests: tokenRequests });
          checkReads('bare node:http', reads);
          return reads;
        },
        { rounds: 2, seconds: SECONDS / 2, warmUp: 2, onRound: (round, index) => printRound(round, index, 'API ') },
      );
      api = { reads: result.ours.rps, bare: result.baseline.rps, readP99: result.ours.p99 };
    }
    const live = PHASES.has('live') ? await liveListPhase(app, env.DATABASE_URL!, crowd) : undefined;
    let loops: Row['loops'];
    if (PHASES.has('loops')) {
      // One page asked again and again, nothing else running: one user's notes list, and the login
      // page, which reads no table, each against bare node sending its bytes.
      console.log('  one page in a loop, against bare node:http sending the same bytes:');
      const list = await compareWithBare(`GET /notes/ as ${crowd[0]!.username}`, app, '/notes/', { cookie: crowd[0]!.cookie }, dir);
      const login = await compareWithBare('GET /accounts/login/ (anonymous)', app, '/accounts/login/', {}, dir);
      loops = { list: [list.ours.rps, list.baseline.rps], login: [login.ours.rps, login.baseline.rps] };
    }
    const writes = result.rounds.map((round) => round.ours.writes);
    const seconds = writes.reduce((sum, round) => sum + round.seconds, 0);
    const editLatencies = writes.flatMap((round) => round.edits.latencies);
    const editP99 = summarize(editLatencies, seconds).p99;
    const chatPerSecond = writes.reduce((sum, round) => sum + round.chat.confirmed, 0) / seconds;
    const row = {
      label: configuration.label,
      reads: result.ours.rps,
      readP99: result.ours.p99,
      editP99,
      chatPerSecond,
      baseline: result.baseline,
      api,
      open,
      live,
      loops,
      rssMb: await residentMb(app),
      startMs: app.startMs,
    };
    console.log(
      `  ${row.label}: ${rate(row.reads)} reads/s, ${formatShare(row.reads, row.baseline.rps)} node:http (rounds' means), read p99 ${ms(row.readP99)} (median round), ` +
        `edit p99 ${ms(row.editP99)} (all ${editLatencies.length} edits), chat ${chatPerSecond.toFixed(1)} messages/s; ` +
        (api ? `API ${rate(api.reads)} reads/s, ${formatShare(api.reads, api.bare)}, p99 ${ms(api.readP99)}; ` : '') +
        (live ? `live list: ${live.ticks} ticks to ${LIVE_VIEWERS} viewers, p50 ${live.p50.toFixed(1)} ms, p99 ${live.p99.toFixed(1)} ms; ` : '') +
        `resident memory ${row.rssMb.toFixed(0)} MB; first answer ${row.startMs} ms after start`,
    );
    return row;
  } finally {
    await writers?.stop();
    await bare?.stop();
    await bareApi?.stop();
    await app?.stop();
    await drop();
  }
}

/** A share of bare node, or "no share" when the client was not well above the app (bench/ceiling.ts). */
const shareCell = (ours: number, bare: number) => {
  const { share } = shareOfBare(ours, bare);
  return share === undefined ? 'no share (client-bound)' : `${(share * 100).toFixed(1)}%`;
};

function printTable(rows: Row[]): void {
  console.log('\n| configuration | reads/s | client ceiling (bare node:http, same run) | share of bare | read p99 | edit p99 | chat messages/s | API reads/s | API share of bare | API p99 | live tick p50 | live tick p99 | memory after | first answer |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const api = row.api ? `${rate(row.api.reads)} | ${shareCell(row.api.reads, row.api.bare)} | ${ms(row.api.readP99)}` : '– | – | –';
    const live = row.live ? `${row.live.p50.toFixed(1)} ms | ${row.live.p99.toFixed(1)} ms` : '– | –';
    console.log(
      `| ${row.label} | ${rate(row.reads)} | ${rate(row.baseline.rps)} req/s, p99 ${ms(row.baseline.p99)} | ${shareCell(row.reads, row.baseline.rps)} | ${ms(row.readP99)} | ${ms(row.editP99)} | ` +
        `${row.chatPerSecond.toFixed(1)} | ${api} | ${live} | ${row.rssMb.toFixed(0)} MB | ${row.startMs} ms |`,
    );
  }
  console.log(`\nA share is given only when the client reached ${CLIENT_HEADROOM} times the app's rate through bare node (bench/ceiling.ts).`);
  if (rows.some((row) => row.loops)) {
    console.log('\nOne page in a loop (32 connections, one user, nothing else running), against bare node:http sending the same bytes:\n');
    console.log('| configuration | GET /notes/ reads/s | share of bare | GET /accounts/login/ reads/s | share of bare |');
    console.log('|---|---|---|---|---|');
    for (const { label, loops } of rows) {
      if (loops) console.log(`| ${label} | ${rate(loops.list[0])} | ${shareCell(...loops.list)} | ${rate(loops.login[0])} | ${shareCell(...loops.login)} |`);
    }
  }
  if (!rows.some((row) => row.open)) return;
  console.log(`\nOpen loop: the same reads, ${rate(OPEN_RATE)} a second sent on schedule for ${OPEN_SECONDS} s, the writers writing; bare node:http at that rate beside it.\n`);
  console.log('| configuration | read p50 | read p99 | edit p99 | bare p50 | bare p99 |');
  console.log('|---|---|---|---|---|---|');
  for (const { label, open } of rows) {
    if (open)
      console.log(`| ${label} | ${fine(open.p50)} | ${fine(open.p99)} | ${fine(open.editP99)} | ${fine(open.bareP50)} | ${fine(open.bareP99)} |`);
  }
}

export async function run(): Promise<void> {
  const unknown = [...PHASES].filter((phase) => !['reads', 'open', 'api', 'live', 'loops'].includes(phase));
  if (unknown.length) throw new Error(`unknown BENCH_PHASES ${unknown.join(', ')} (known: reads, open, api, live, loops)`);
  const configurations = chosenConfigurations(CROWD_CONFIGURATIONS);
  const each = Math.max(1, Math.round(SECONDS / ROUNDS));
  console.log(
    `\n## Crowd: ${USERS} users in groups of ${GROUP_SIZE}, ${NOTES_EACH} notes each (every third in the group); ${CONNECTIONS} connections read ` +
      `(${LIST_SHARE * 100}% /notes/, the rest a visible note) while ${WRITERS} writers save ${EDITS_PER_SECOND} edits/s and ` +
      `${(USERS / GROUP_SIZE) * CHATTERS_PER_GROUP} members post ${CHAT_PER_SECOND} chat messages/s; then ${LIVE_VIEWERS} viewers of one ` +
      `shopping list while it gets ${LIVE_TICKS_PER_SECOND} ticks/s`,
  );
  console.log(
    `   (WEB_CONCURRENCY=${process.env.WEB_CONCURRENCY ?? 'the default, a worker per core and a core fewer beside a local PostgreSQL'}; ${ROUNDS} rounds of ${each} s a side; ` +
      `load average at start ${loadavg().map((value) => value.toFixed(2)).join(' ')} on ${availableParallelism()} cores)`,
  );
  const rows: Row[] = [];
  const { dir, cleanup } = scratch();
  try {
    for (const configuration of configurations) rows.push(await runConfiguration(configuration, dir));
  } finally {
    cleanup();
  }
  printTable(rows);
}

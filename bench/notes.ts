import { type Configuration, chosenConfigurations } from './configs.js';
import { type Measurement, type RunningProcess, formatRow, measure, scratch, startApp, startBare } from './lib.js';
import { BENCH_ITERATIONS, BENCH_PASSWORD, COMMON_WORD, RARE_WORD, seedNotes } from './notes-seed.js';
import { type Comparison, alternate, alternateRuns, printComparison } from './rounds.js';

// Notes section of `npm run bench`: does the list and search cost the same at 100,000 visible
// notes as at 1,000, with nothing kept between requests? The real server (`groupnotes serve`,
// WEB_CONCURRENCY as set in the environment, one worker per core by default) on seeded
// databases, at 32 connections: the reader sees 1,000 or 100,000 notes (half their own, a
// quarter from each of two groups), plus half as many they may not see. The two lists are
// measured against each other, the other pages against bare node:http serving the same bytes,
// and every page one request at a time too. Each database configuration of BENCH_CONFIGS (by
// default SQLite and PostgreSQL, both with nothing kept) in turn.

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Seconds of one request at a time per page, for its latency without queueing. */
const ALONE_SECONDS = 5;
/** The targets: the list at 100,000 within 1.2x of the list at 1,000; search p99 (one at a time) under 50 ms. */
const LIST_RATIO_TARGET = 1.2;
const SEARCH_P99_TARGET = 50;

interface Page {
  path: string;
  label: string;
}

/** Measured against bare node on the 100,000-note database; the lists are measured against each other. */
const PAGES: Page[] = [
  { path: '/notes/?page=20', label: '/notes/?page=20 (100,000 visible)' },
  { path: `/notes/?q=${RARE_WORD}`, label: `/notes/?q=${RARE_WORD} (in 1 note in 20)` },
  { path: `/notes/?q=${COMMON_WORD}`, label: `/notes/?q=${COMMON_WORD} (in 1 note in 4)` },
];

/** Logs in through the real form (CSRF cookie + token), returning the Cookie header to send. */
async function login(base: string, username: string): Promise<string> {
  const page = await fetch(`${base}/accounts/login/`);
  const csrfCookie = page.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('csrftoken='))!;
  const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(await page.text())![1]!;
  const response = await fetch(`${base}/accounts/login/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie, origin: base },
    body: new URLSearchParams({ csrfmiddlewaretoken: token, username, password: BENCH_PASSWORD }).toString(),
  });
  const session = response.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('sessionid='));
  if (response.status !== 302 || !session) throw new Error(`bench login failed with ${response.status}`);
  return session;
}

/** The app serving a freshly seeded database, and the reader's session on it. */
interface Reader {
  url: string;
  cookie: string;
  stop(): Promise<void>;
}

/** A page's latency with nothing else running: one connection, one request after another. */
async function alone(app: Reader, page: Page): Promise<Measurement> {
  const result = await measure(app.url + page.path, { connections: 1, duration: ALONE_SECONDS, headers: { cookie: app.cookie } });
  console.log(formatRow(`${page.label}, one at a time`, result));
  return result;
}

/** The page's bytes, after checking that it really lists 50 notes. */
async function fetchPage(app: Reader, path: string): Promise<{ body: string; contentType?: string }> {
  const response = await fetch(app.url + path, { headers: { cookie: app.cookie } });
  const body = await response.text();
  const shown = (body.match(/class="note-title"/g) ?? []).length;
  if (response.status !== 200 || shown !== 50) throw new Error(`${path}: status ${response.status}, ${shown} notes instead of 50`);
  return { body, contentType: response.headers.get('content-type') ?? undefined };
}

/** The page on the app and its bytes on the bare baseline, in alternating rounds at 32 connections; then the page alone. */
async function compare(app: Reader, page: Page, dir: string): Promise<Comparison & { alone: Measurement }> {
  const { body, contentType } = await fetchPage(app, page.path);
  const bare = await startBare(body, dir, contentType);
  try {
    const result = await alternate({ url: app.url + page.path, headers: { cookie: app.cookie } }, { url: `${bare.url}/` }, { seconds: SECONDS });
    printComparison(page.label, body.length, result);
    return { ...result, alone: await alone(app, page) };
  } finally {
    await bare.stop();
  }
}

async function serveSeeded(configuration: Configuration, dir: string, visible: number): Promise<Reader> {
  const { env, drop } = await configuration.prepare(dir, `notes-${configuration.name}-${visible}`);
  let app: RunningProcess | undefined;
  try {
    const started = Date.now();
    const username = await seedNotes(env.DATABASE_URL!, visible);
    console.log(`  seeded ${visible * 1.5} notes, ${visible} visible to "${username}", in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    app = await startApp({ ...env, PBKDF2_ITERATIONS: String(BENCH_ITERATIONS) });
    const running = app;
    return { url: app.url, cookie: await login(app.url, username), stop: () => running.stop().then(drop) };
  } catch (error) {
    await app?.stop();
    await drop();
    throw error;
  }
}

/**
 * One configuration: the 100,000-note list against the 1,000-note list, both servers up and
 * loaded in alternating rounds, so that the machine's speed, which wanders by a fifth from one
 * minute to the next, cancels out of their ratio; then the other pages against bare node.
 */
async function runConfiguration(configuration: Configuration, dir: string): Promise<void> {
  console.log(`\n### ${configuration.label}`);
  const small = await serveSeeded(configuration, dir, 1_000);
  let large: Reader | undefined;
  try {
    large = await serveSeeded(configuration, dir, 100_000);
    const [big, few] = [large, small];
    for (const app of [big, few]) await fetchPage(app, '/notes/');
    const list = (app: Reader) => (duration: number) => measure(`${app.url}/notes/`, { headers: { cookie: app.cookie }, duration });
    const lists = await alternateRuns(list(big), list(few), { seconds: SECONDS });
    console.log(formatRow('/notes/ (100,000 visible)', lists.ours));
    console.log(formatRow('/notes/ (1,000 visible)', lists.baseline));
    const ratio = 1 / lists.share;
    const rounds = lists.rounds.map((r) => (r.baseline.rps / r.ours.rps).toFixed(2)).join(', ');
    const [bigAlone, fewAlone] = [await alone(big, { path: '/notes/', label: '/notes/ (100,000 visible)' }), await alone(few, { path: '/notes/', label: '/notes/ (1,000 visible)' })];
    const results = new Map<string, Comparison & { alone: Measurement }>();
    for (const page of PAGES) results.set(page.path, await compare(big, page, dir));
    const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.log(
      `  ${configuration.label}: time per request of the 100,000-note list relative to the 1,000-note list ${ratio.toFixed(2)}x ` +
        `(${met(ratio <= LIST_RATIO_TARGET)}, target ${LIST_RATIO_TARGET}x; rounds ${rounds}); one at a time p50 ${bigAlone.p50} and ${fewAlone.p50} ms, p99 ${bigAlone.p99} and ${fewAlone.p99} ms`,
    );
    const search = (word: string) => results.get(`/notes/?q=${word}`)!;
    const p99 = (word: string) => search(word).alone.p99;
    console.log(
      `  ${configuration.label}: search over 100,000 visible, p99 one at a time: "${RARE_WORD}" ${p99(RARE_WORD)} ms, "${COMMON_WORD}" ${p99(COMMON_WORD)} ms ` +
        `(${met(Math.max(p99(RARE_WORD), p99(COMMON_WORD)) < SEARCH_P99_TARGET)}, target < ${SEARCH_P99_TARGET} ms); ` +
        `at 32 connections (median round) ${search(RARE_WORD).ours.p99} ms and ${search(COMMON_WORD).ours.p99} ms`,
    );
  } finally {
    await large?.stop();
    await small.stop();
  }
}

export async function run(): Promise<void> {
  const configurations = chosenConfigurations(['sqlite-uncached', 'postgres-uncached']);
  console.log(
    `\n## notes (${configurations.map((c) => c.name).join(', ')}; WEB_CONCURRENCY=${process.env.WEB_CONCURRENCY ?? 'default'}, 32 connections, ${SECONDS} s a side per page)`,
  );
  const { dir, cleanup } = scratch();
  try {
    for (const configuration of configurations) await runConfiguration(configuration, dir);
  } finally {
    cleanup();
  }
}

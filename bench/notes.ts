import { type Configuration, chosenConfigurations } from './configs.js';
import { type Measurement, type RunningProcess, formatRow, measure, scratch, startApp, startBare } from './lib.js';
import { BENCH_ITERATIONS, BENCH_PASSWORD, COMMON_WORD, RARE_WORD, seedNotes } from './notes-seed.js';
import { type Comparison, alternate, printComparison } from './rounds.js';

// Notes section of `npm run bench`: the real server (`groupnotes serve`, WEB_CONCURRENCY as set
// in the environment, one worker per core by default) on a seeded database, beside bare
// node:http serving the same page bytes, at 32 connections. The reader sees 1,000 or 100,000
// notes (half their own, a quarter from each of two groups), plus half as many they may not see.
// Each database configuration of BENCH_CONFIGS (by default SQLite with nothing kept, and
// PostgreSQL) in turn; the question is whether the list and search cost the same at 100,000
// notes as at 1,000, so nothing is kept between requests.

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Seconds of one request at a time per page, for its latency without queueing. */
const ALONE_SECONDS = 3;
/** The targets: the list at 100,000 within 1.2x of the list at 1,000; search p99 (one at a time) under 50 ms. */
const LIST_RATIO_TARGET = 1.2;
const SEARCH_P99_TARGET = 50;

interface Page {
  path: string;
  label: string;
}

const SCENARIOS: { visible: number; pages: Page[] }[] = [
  { visible: 1_000, pages: [{ path: '/notes/', label: '/notes/ (1,000 visible)' }] },
  {
    visible: 100_000,
    pages: [
      { path: '/notes/', label: '/notes/ (100,000 visible)' },
      { path: '/notes/?page=20', label: '/notes/?page=20 (100,000 visible)' },
      { path: `/notes/?q=${RARE_WORD}`, label: `/notes/?q=${RARE_WORD} (in 1 note in 20)` },
      { path: `/notes/?q=${COMMON_WORD}`, label: `/notes/?q=${COMMON_WORD} (in 1 note in 4)` },
    ],
  },
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

/** A page's latency with nothing else running: one connection, one request after another. */
type Result = Comparison & { alone: Measurement };

/**
 * The page on the app and its bytes on the bare baseline, in alternating rounds at 32
 * connections; then the page alone. Checks it really lists 50 notes.
 */
async function compare(app: RunningProcess, page: Page, cookie: string, dir: string): Promise<Result> {
  const response = await fetch(app.url + page.path, { headers: { cookie } });
  const body = await response.text();
  const shown = (body.match(/class="note-title"/g) ?? []).length;
  if (response.status !== 200 || shown !== 50) throw new Error(`${page.path}: status ${response.status}, ${shown} notes instead of 50`);
  const bare = await startBare(body, dir, response.headers.get('content-type') ?? undefined);
  try {
    const result = await alternate({ url: app.url + page.path, headers: { cookie } }, { url: `${bare.url}/` }, { seconds: SECONDS });
    printComparison(page.label, body.length, result);
    const alone = await measure(app.url + page.path, { connections: 1, duration: ALONE_SECONDS, headers: { cookie } });
    console.log(formatRow(`${page.label}, one at a time`, alone));
    return { ...result, alone };
  } finally {
    await bare.stop();
  }
}

/** Every page of every scenario on one configuration, each scenario on a database of its own. */
async function runConfiguration(configuration: Configuration, dir: string): Promise<void> {
  console.log(`\n### ${configuration.label}`);
  const results = new Map<string, Result>();
  for (const scenario of SCENARIOS) {
    const { env, drop } = await configuration.prepare(dir, `notes-${configuration.name}-${scenario.visible}`);
    try {
      const started = Date.now();
      const username = await seedNotes(env.DATABASE_URL!, scenario.visible);
      console.log(`  seeded ${scenario.visible * 1.5} notes, ${scenario.visible} visible to "${username}", in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const app = await startApp({ ...env, PBKDF2_ITERATIONS: String(BENCH_ITERATIONS) });
      try {
        const cookie = await login(app.url, username);
        for (const page of scenario.pages) results.set(`${page.path} ${scenario.visible}`, await compare(app, page, cookie, dir));
      } finally {
        await app.stop();
      }
    } finally {
      await drop();
    }
  }
  // Each page's rate is taken relative to bare node serving the same bytes in the same rounds,
  // so that the machine's speed, which wanders between scenarios minutes apart, cancels out.
  const share = (path: string, visible: number) => results.get(`${path} ${visible}`)!.share;
  const rate = (path: string, visible: number) => results.get(`${path} ${visible}`)!.ours.rps;
  const ratio = (path: string) => share('/notes/', 1000) / share(path, 100000);
  const raw = (path: string) => (rate('/notes/', 1000) / rate(path, 100000)).toFixed(2);
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(
    `  ${configuration.label}: time per request relative to the 1,000-note list: 100,000 visible ${ratio('/notes/').toFixed(2)}x ` +
      `(${met(ratio('/notes/') <= LIST_RATIO_TARGET)}, target ${LIST_RATIO_TARGET}x), its 20th page ${ratio('/notes/?page=20').toFixed(2)}x` +
      ` (from requests/s alone: ${raw('/notes/')}x and ${raw('/notes/?page=20')}x; one at a time, p50 ${results.get('/notes/ 1000')!.alone.p50} ms at 1,000 and ` +
      `${results.get('/notes/ 100000')!.alone.p50} ms at 100,000)`,
  );
  const search = (word: string) => results.get(`/notes/?q=${word} 100000`)!;
  const alone = (word: string) => search(word).alone.p99;
  console.log(
    `  ${configuration.label}: search over 100,000 visible, p99 one at a time: "${RARE_WORD}" ${alone(RARE_WORD)} ms, "${COMMON_WORD}" ${alone(COMMON_WORD)} ms ` +
      `(${met(Math.max(alone(RARE_WORD), alone(COMMON_WORD)) < SEARCH_P99_TARGET)}, target < ${SEARCH_P99_TARGET} ms); ` +
      `at 32 connections (median round) ${search(RARE_WORD).ours.p99} ms and ${search(COMMON_WORD).ours.p99} ms`,
  );
}

export async function run(): Promise<void> {
  const configurations = chosenConfigurations(['sqlite-uncached', 'postgres']);
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

import { join } from 'node:path';
import { BENCH_ITERATIONS, BENCH_PASSWORD, SEARCH_WORD, seedNotes } from './notes-seed.js';
import { type Comparison, type RunningProcess, alternate, printComparison, scratch, startApp, startBare } from './lib.js';

// Notes section of `npm run bench`: the real server (`groupnotes serve`, WEB_CONCURRENCY as set
// in the environment, one process by default) on a seeded SQLite file, beside bare node:http
// serving the same page bytes, at 32 connections. The reader sees 1,000, 10,000 or 100,000
// notes (half their own, a quarter from each of two groups), and as many hidden notes exist.

const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);

interface Page {
  path: string;
  label: string;
}

const SCENARIOS: { visible: number; pages: Page[] }[] = [
  { visible: 1_000, pages: [{ path: '/notes/', label: '/notes/ (1,000 visible)' }] },
  {
    visible: 10_000,
    pages: [
      { path: '/notes/', label: '/notes/ (10,000 visible)' },
      { path: `/notes/?q=${SEARCH_WORD}`, label: `/notes/?q=${SEARCH_WORD} (10,000 visible)` },
    ],
  },
  {
    visible: 100_000,
    pages: [
      { path: '/notes/', label: '/notes/ (100,000 visible)' },
      { path: '/notes/?page=20', label: '/notes/?page=20 (100,000 visible)' },
      { path: `/notes/?q=${SEARCH_WORD}`, label: `/notes/?q=${SEARCH_WORD} (100,000 visible)` },
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

/** The page on the app and its bytes on the bare baseline; checks it really lists 50 notes. */
async function compare(app: RunningProcess, page: Page, cookie: string, dir: string): Promise<Comparison> {
  const response = await fetch(app.url + page.path, { headers: { cookie } });
  const body = await response.text();
  const shown = (body.match(/class="note-title"/g) ?? []).length;
  if (response.status !== 200 || shown !== 50) throw new Error(`${page.path}: status ${response.status}, ${shown} notes instead of 50`);
  const bare = await startBare(body, dir, response.headers.get('content-type') ?? undefined);
  try {
    const result = await alternate({ url: app.url + page.path, headers: { cookie } }, { url: `${bare.url}/` }, { seconds: SECONDS });
    printComparison(page.label, body.length, result);
    return result;
  } finally {
    await bare.stop();
  }
}

export async function run(): Promise<void> {
  const { dir, cleanup } = scratch();
  const results = new Map<string, Comparison>();
  console.log(`\n## notes (SQLite, WEB_CONCURRENCY=${process.env.WEB_CONCURRENCY ?? 'default'}, 32 connections, ${SECONDS} s each)`);
  try {
    for (const scenario of SCENARIOS) {
      const databaseUrl = `sqlite:${join(dir, `notes-${scenario.visible}.sqlite3`)}`;
      const started = Date.now();
      const username = await seedNotes(databaseUrl, scenario.visible);
      console.log(`  seeded ${scenario.visible * 1.5} notes, ${scenario.visible} visible to "${username}", in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      // Each page twice: as served (kept pages answer while nothing changes), then with the page
      // cache off, which is what every request costs while the database keeps changing.
      for (const cache of ['on', 'off'] as const) {
        const app = await startApp({ DATABASE_URL: databaseUrl, PBKDF2_ITERATIONS: String(BENCH_ITERATIONS), ...(cache === 'off' ? { PAGE_CACHE_MB: '0' } : {}) });
        try {
          const cookie = await login(app.url, username);
          for (const page of scenario.pages) {
            const label = cache === 'on' ? page.label : `${page.label}, page cache off`;
            results.set(`${cache} ${page.path} ${scenario.visible}`, await compare(app, { ...page, label }, cookie, dir));
          }
        } finally {
          await app.stop();
        }
      }
    }
  } finally {
    cleanup();
  }
  for (const cache of ['on', 'off']) {
    // Each page's rate is taken relative to bare node serving the same bytes in the same rounds,
    // so that the machine's speed, which wanders between scenarios minutes apart, cancels out.
    const share = (path: string, visible: number) => results.get(`${cache} ${path} ${visible}`)!.share;
    const rate = (path: string, visible: number) => results.get(`${cache} ${path} ${visible}`)!.ours.rps;
    const ratio = (path: string) => (share('/notes/', 1000) / share(path, 100000)).toFixed(2);
    const raw = (path: string) => (rate('/notes/', 1000) / rate(path, 100000)).toFixed(2);
    console.log(
      `  time per request relative to the 1,000-note list, page cache ${cache}: 100,000 visible ${ratio('/notes/')}x, its 20th page ${ratio('/notes/?page=20')}x` +
        ` (from requests/s alone: ${raw('/notes/')}x and ${raw('/notes/?page=20')}x)`,
    );
  }
}

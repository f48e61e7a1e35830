import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BENCH_ITERATIONS, BENCH_PASSWORD, SEARCH_WORD, seedNotes } from './notes-seed.js';

// Notes section of `npm run bench`: the real server (a spawned `groupnotes serve` on a seeded
// SQLite file) beside a bare node:http server that sends the same page bytes, in the same run,
// at 32 connections. Loopback only, bounded: SECONDS per measurement after a short warm-up.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = 2;
const SECRET = 'bench-secret-key-0123456789abcdefghijklmnopqrstuvwxyz';

interface Measured {
  rps: number;
  p99: number;
  errors: number;
}

interface Row {
  label: string;
  app: Measured;
  bare: Measured;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startApp(databaseFile: string): Promise<{ base: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['src/cli.ts', 'serve'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: `sqlite:${databaseFile}`,
      SECRET_KEY: SECRET,
      PBKDF2_ITERATIONS: String(BENCH_ITERATIONS),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/accounts/login/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

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
  if (response.status !== 302) throw new Error(`login failed with ${response.status}`);
  const session = response.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('sessionid='));
  if (!session) throw new Error('login set no session cookie');
  return session;
}

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<Measured> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** The same bytes and content type from a bare node:http server: the ceiling for this machine. */
async function bareServer(body: Buffer, contentType: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

async function compare(base: string, path: string, cookie: string, label: string, expectedNotes: number): Promise<Row> {
  const page = await fetch(`${base}${path}`, { headers: { cookie } });
  const body = Buffer.from(await page.arrayBuffer());
  const shown = (body.toString().match(/class="note-title"/g) ?? []).length;
  if (page.status !== 200 || shown !== expectedNotes) throw new Error(`${path}: status ${page.status}, ${shown} notes instead of ${expectedNotes}`);
  await load(`${base}${path}`, { cookie }, WARMUP_SECONDS);
  const app = await load(`${base}${path}`, { cookie }, SECONDS);
  const bare = await bareServer(body, page.headers.get('content-type') ?? 'text/html');
  try {
    await load(bare.url, {}, WARMUP_SECONDS);
    return { label: `${label} (${(body.length / 1024).toFixed(0)} KiB)`, app, bare: await load(bare.url, {}, SECONDS) };
  } finally {
    await new Promise((resolve) => bare.server.close(resolve));
  }
}

const SCENARIOS: { visible: number; pages: { path: string; label: string; notes: number }[] }[] = [
  { visible: 1_000, pages: [{ path: '/notes/', label: 'GET /notes/, 1,000 visible', notes: 50 }] },
  {
    visible: 10_000,
    pages: [
      { path: '/notes/', label: 'GET /notes/, 10,000 visible', notes: 50 },
      { path: `/notes/?q=${SEARCH_WORD}`, label: `GET /notes/?q=${SEARCH_WORD}, 10,000 visible`, notes: 50 },
    ],
  },
  {
    visible: 100_000,
    pages: [
      { path: '/notes/', label: 'GET /notes/, 100,000 visible', notes: 50 },
      { path: '/notes/?page=20', label: 'GET /notes/?page=20, 100,000 visible', notes: 50 },
      { path: `/notes/?q=${SEARCH_WORD}`, label: `GET /notes/?q=${SEARCH_WORD}, 100,000 visible`, notes: 50 },
    ],
  },
];

function print(rows: Row[]): void {
  const pad = (text: string, width: number) => text.padStart(width);
  console.log(`\nnotes: one app process on SQLite vs bare node:http with the same bytes, ${CONNECTIONS} connections, ${SECONDS} s each`);
  console.log(`${'page'.padEnd(52)}${pad('app req/s', 11)}${pad('p99 ms', 8)}${pad('bare req/s', 12)}${pad('p99 ms', 8)}${pad('app/bare', 10)}${pad('errors', 8)}`);
  for (const { label, app, bare } of rows) {
    console.log(
      `${label.padEnd(52)}${pad(app.rps.toFixed(0), 11)}${pad(app.p99.toFixed(1), 8)}${pad(bare.rps.toFixed(0), 12)}${pad(bare.p99.toFixed(1), 8)}` +
        `${pad(`${((100 * app.rps) / bare.rps).toFixed(1)}%`, 10)}${pad(String(app.errors + bare.errors), 8)}`,
    );
  }
  const list = (label: string) => rows.find((row) => row.label.startsWith(label))?.app.rps;
  const small = list('GET /notes/, 1,000 visible');
  const large = list('GET /notes/, 100,000 visible');
  const deep = list('GET /notes/?page=20, 100,000 visible');
  if (small && large && deep) {
    const ratio = (rps: number) => (small / rps).toFixed(2);
    console.log(`time per request relative to the 1,000-note list: 100,000 visible ${ratio(large)}x, its 20th page ${ratio(deep)}x (target: at most 1.2x)`);
  }
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'groupnotes-bench-notes-'));
  const rows: Row[] = [];
  try {
    for (const scenario of SCENARIOS) {
      const file = join(dir, `notes-${scenario.visible}.sqlite3`);
      const started = Date.now();
      const username = await seedNotes(`sqlite:${file}`, scenario.visible);
      console.log(`seeded ${scenario.visible * 1.5} notes (${scenario.visible} visible to "${username}") in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const app = await startApp(file);
      try {
        const cookie = await login(app.base, username);
        for (const page of scenario.pages) rows.push(await compare(app.base, page.path, cookie, page.label, page.notes));
      } finally {
        await app.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  print(rows);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { SERVE_V8_FLAGS } from '../src/cluster.js';

export const ROOT = new URL('..', import.meta.url).pathname;
export const BENCH_SECRET = 'bench-secret-key-0123456789abcdefghijklmnopqrstuvwxyz';

export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Responses by status code, where the load generator counts them. */
  statusCodes?: Record<string, number>;
}

/** A scratch directory for one benchmark's database and files, removed by cleanup(). */
export function scratch(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'groupnotes-bench-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A new PostgreSQL database on the server of `serverUrl` (any database of it), for one
 * benchmark's run: its URL, and drop() to remove it (once the app's connections have closed).
 */
export async function scratchPostgres(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `groupnotes_bench_${randomBytes(6).toString('hex')}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  await admin((client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      admin(async (client) => {
        // The app's pool may still be closing its connections: give them a moment, then force.
        for (let waited = 0; waited < 5000; waited += 100) {
          const { rows } = await client.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if (rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await client.query(`drop database if exists ${name} with (force)`);
      }),
  };
}

async function waitForPort(child: ChildProcess, pattern: RegExp, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`${what} exited with ${code}:\n${output}`)));
  });
}

export interface RunningProcess {
  port: number;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.removeAllListeners('exit');
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/** A port that was free a moment ago (the OS picks it), for a child process to listen on. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitUntilServing(url: string, child: ChildProcess): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not answer within 60 s`);
}

/** The real server (`groupnotes serve`, started as `npm start` does) in its own process, on a free port. */
export async function startApp(env: Record<string, string>): Promise<RunningProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVE_V8_FLAGS, 'dist/cli.js', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), SECRET_KEY: BENCH_SECRET, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(`${url}/healthz`, child);
  return { port, url, child, stop: stopper(child) };
}

/** The bare node:http baseline serving `body` (the app's own page bytes) from memory. */
export async function startBare(body: string, dir: string, contentType?: string): Promise<RunningProcess> {
  const file = join(dir, `bare-${Date.now()}.body`);
  writeFileSync(file, body);
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts', file, ...(contentType ? [contentType] : [])], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await waitForPort(child, /^(\d+)\n/, 'bare server');
  return { port, url: `http://127.0.0.1:${port}`, child, stop: stopper(child) };
}

/**
 * autocannon against one URL: requests/s and latency percentiles in milliseconds. `setupRequest`,
 * when given, shapes every request before it is sent (path, headers), so that one run can ask
 * for many pages as many users.
 */
export async function measure(
  url: string,
  {
    connections = 32,
    duration = 10,
    headers = {},
    overallRate,
    setupRequest,
  }: {
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    overallRate?: number;
    setupRequest?: (request: autocannon.Request) => autocannon.Request;
  } = {},
): Promise<Measurement> {
  const result = await autocannon({
    url,
    connections,
    duration,
    headers,
    pipelining: 1,
    ...(overallRate ? { overallRate } : {}),
    ...(setupRequest ? { requests: [{ setupRequest }] } : {}),
  });
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count = 0 }]) => [code, count]));
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
  };
}

/**
 * Open-loop latency probe: one GET every `1000 / rate` ms on kept-alive connections, whether or
 * not earlier answers are back, each timed from its send (autocannon's rate limit sends in bursts,
 * and its bursts were in the figure).
 */
export async function probe(
  url: string,
  { rate = 100, seconds = 12, headers = {} }: { rate?: number; seconds?: number; headers?: Record<string, string> } = {},
): Promise<Measurement & { latencies: number[] }> {
  const { Agent, get } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    let sent = 0;
    let answered = 0;
    const total = rate * seconds;
    const done = () => {
      answered++;
      if (answered === total) resolve();
    };
    const send = () => {
      const at = performance.now();
      get(url, { agent, headers }, (response) => {
        if (response.statusCode! < 200 || response.statusCode! >= 300) non2xx++;
        response.resume();
        response.on('end', () => {
          latencies.push(performance.now() - at);
          done();
        });
      }).on('error', () => {
        errors++;
        done();
      });
    };
    const tick = () => {
      // Catch up on the schedule rather than drift: timers fire late under load.
      while (sent < total && sent <= ((performance.now() - started) * rate) / 1000) {
        sent++;
        send();
      }
      // Sleeps until the next send is due: polling every millisecond woke this process a thousand
      // times a second, and those wake-ups alone took a fifth of the raw PBKDF2 rate on this VM.
      if (sent < total) setTimeout(tick, Math.max(0, started + (sent * 1000) / rate - performance.now()));
    };
    tick();
  });
  agent.destroy();
  return { ...summarize(latencies, (performance.now() - started) / 1000), errors, non2xx, latencies };
}

/** Rate and percentiles of latencies in milliseconds (several probes' together, say) taken over `seconds`. */
export function summarize(latencies: number[], seconds: number): Measurement {
  const sorted = [...latencies].sort((a, b) => a - b);
  const percentile = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
  return { rps: sorted.length / seconds, p50: percentile(0.5), p99: percentile(0.99), errors: 0, non2xx: 0 };
}

export function formatRow(label: string, m: Measurement): string {
  const problems = m.errors || m.non2xx ? `  (${m.errors} errors, ${m.non2xx} non-2xx)` : '';
  return `  ${label.padEnd(44)} ${m.rps.toFixed(0).padStart(7)} req/s   p50 ${m.p50.toFixed(1).padStart(5)} ms   p99 ${m.p99.toFixed(1).padStart(6)} ms${problems}`;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export interface Comparison {
  /** Requests/s averaged over the rounds; p50 and p99 the median round's. */
  ours: Measurement;
  baseline: Measurement;
  /** The median of the rounds' ratios of our requests/s to bare node's. */
  share: number;
}

export interface Round<T extends Measurement = Measurement> {
  ours: T;
  baseline: Measurement;
}

/**
 * The app and the bare baseline in alternating rounds (`rounds` of each, `seconds` in all for
 * each, the order swapped every round), compared round by round: this VM's speed wanders by a
 * fifth from one minute to the next, and a 10-second run of each, one after the other, measured
 * that as much as the servers. `runOurs` and `runBare` load their server for the seconds given;
 * a warm-up of each comes first. `onRound`, when given, sees every round as it ends.
 */
export async function alternateRuns<T extends Measurement>(
  runOurs: (seconds: number) => Promise<T>,
  runBare: (seconds: number) => Promise<Measurement>,
  { rounds = 4, seconds = 12, warmUp = 2, onRound }: { rounds?: number; seconds?: number; warmUp?: number; onRound?: (round: Round<T>, index: number) => void } = {},
): Promise<Comparison & { rounds: Round<T>[] }> {
  await runOurs(warmUp);
  await runBare(1);
  const each = Math.max(1, Math.round(seconds / rounds));
  const results: Round<T>[] = [];
  for (let index = 0; index < rounds; index++) {
    let round: Round<T>;
    if (index % 2 === 0) {
      const ours = await runOurs(each);
      round = { ours, baseline: await runBare(each) };
    } else {
      const baseline = await runBare(each);
      round = { ours: await runOurs(each), baseline };
    }
    results.push(round);
    onRound?.(round, index);
  }
  const combine = (all: Measurement[]): Measurement => ({
    rps: all.reduce((sum, m) => sum + m.rps, 0) / all.length,
    p50: median(all.map((m) => m.p50)),
    p99: median(all.map((m) => m.p99)),
    errors: all.reduce((sum, m) => sum + m.errors, 0),
    non2xx: all.reduce((sum, m) => sum + m.non2xx, 0),
  });
  return {
    ours: combine(results.map((r) => r.ours)),
    baseline: combine(results.map((r) => r.baseline)),
    share: median(results.map((r) => r.ours.rps / r.baseline.rps)),
    rounds: results,
  };
}

/** One URL on the app against the bare baseline, in alternating rounds (alternateRuns). */
export function alternate(
  ours: { url: string; headers?: Record<string, string> },
  bare: { url: string },
  options: { rounds?: number; seconds?: number } = {},
): Promise<Comparison & { rounds: Round[] }> {
  return alternateRuns(
    (duration) => measure(ours.url, { headers: ours.headers, duration }),
    (duration) => measure(bare.url, { duration }),
    options,
  );
}

/** Prints a comparison: both servers, every round, the share of bare node's rate. */
export function printComparison(label: string, bytes: number, { ours, baseline, share, rounds }: Awaited<ReturnType<typeof alternate>>): void {
  console.log(formatRow(`${label} (groupnotes)`, ours));
  console.log(formatRow(`${label} (bare node:http, same ${bytes} bytes)`, baseline));
  const each = rounds.map((r) => `${((r.ours.rps / r.baseline.rps) * 100).toFixed(0)}% p99 ${r.ours.p99}/${r.baseline.p99}`).join(', ');
  console.log(`  ${label}: ${(share * 100).toFixed(1)}% of bare node:http (rounds: ${each} ms)`);
}

/** Runs `path` on the app and the same bytes on the bare baseline, alternating; prints both and the ratio. */
export async function compareWithBare(label: string, app: RunningProcess, path: string, headers: Record<string, string>, dir: string): Promise<Comparison> {
  const page = await fetch(app.url + path, { headers });
  if (page.status !== 200) throw new Error(`${label}: ${path} answered ${page.status}`);
  const body = await page.text();
  const bare = await startBare(body, dir, page.headers.get('content-type') ?? undefined);
  try {
    const result = await alternate({ url: app.url + path, headers }, { url: `${bare.url}/` });
    printComparison(label, body.length, result);
    return result;
  } finally {
    await bare.stop();
  }
}

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVE_V8_FLAGS } from '../src/cluster.js';
import { type WrkRequest, wrk } from './wrk.js';

export const ROOT = new URL('..', import.meta.url).pathname;
export const BENCH_SECRET = 'bench-secret-key-0123456789abcdefghijklmnopqrstuvwxyz';

export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Answers that were not a 200, by status: the closed loop (wrk) names the first such status only. */
  statusCodes?: Record<string, number>;
}

/** A scratch directory for one benchmark's database and files, removed by cleanup(). */
export function scratch(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'groupnotes-bench-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
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
  /** Milliseconds from the process's start to its first answered request (the app's; 0 for others). */
  startMs: number;
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
      // Often: the time to the first answer is a figure of the benchmark's.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  throw new Error(`${url} did not answer within 60 s`);
}

/** Resident memory of a process and its children (the cluster's workers), in MB, as ps counts it. */
export async function residentMb({ child }: RunningProcess): Promise<number> {
  const { execFile } = await import('node:child_process');
  const pid = String(child.pid);
  const output = await new Promise<string>((resolve, reject) =>
    execFile('ps', ['-o', 'rss=', '-p', pid, '--ppid', pid], (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
  return output.split('\n').reduce((sum, line) => sum + (Number(line.trim()) || 0), 0) / 1024;
}

/** The real server (`groupnotes serve`, started as `npm start` does) in its own process, on a free port. */
export async function startApp(env: Record<string, string>): Promise<RunningProcess> {
  const port = await freePort();
  const started = performance.now();
  // BENCH_CPU_PROF=DIR: every process of the app (the cluster's workers inherit the flags) writes
  // a CPU profile there when it stops; `tsx bench/profile.ts DIR` tells where the time went.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...SERVE_V8_FLAGS, ...profile, 'dist/cli.js', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), SECRET_KEY: BENCH_SECRET, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(`${url}/healthz`, child);
  return { startMs: Math.round(performance.now() - started), port, url, child, stop: stopper(child) };
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
  return { startMs: 0, port, url: `http://127.0.0.1:${port}`, child, stop: stopper(child) };
}

/**
 * wrk against one URL: requests/s and latency percentiles in milliseconds. `requests`, when
 * given, are sent in turn instead (path on the URL's origin, and headers), so that one run can
 * ask for many pages as many users.
 */
export async function measure(
  url: string,
  {
    connections = 32,
    duration = 10,
    headers = {},
    requests,
  }: {
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: WrkRequest[];
  } = {},
): Promise<Measurement> {
  const { origin, pathname, search } = new URL(url);
  const result = await wrk(origin, requests ?? [{ path: pathname + search, headers }], { connections, seconds: duration, threads: connections > 1 ? 2 : 1 });
  return {
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    errors: result.errors,
    non2xx: result.non200,
    ...(result.firstOther ? { statusCodes: { [String(result.firstOther)]: result.non200 } } : {}),
  };
}

/**
 * Open-loop latency probe: one GET every `1000 / rate` ms on kept-alive connections, whether or
 * not earlier answers are back, each timed from its send (a closed-loop client's rate limit sends in bursts,
 * and its bursts were in the figure).
 */
export async function probe(
  url: string,
  {
    rate = 100,
    seconds = 12,
    headers = {},
    sockets = 8,
    next,
  }: {
    rate?: number;
    seconds?: number;
    headers?: Record<string, string>;
    /** Connections open at most: a request sent while all are busy waits for one, and that wait is timed. */
    sockets?: number;
    /** Each request's path (on `url`'s origin) and headers, when they change from one to the next. */
    next?: () => { path: string; headers: Record<string, string> };
  } = {},
): Promise<Measurement & { latencies: number[]; statusCodes: Record<string, number> }> {
  const { Agent, get } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const statusCodes: Record<string, number> = {};
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
      const asked = next?.();
      const target = asked ? new URL(asked.path, url) : url;
      get(target, { agent, headers: asked?.headers ?? headers }, (response) => {
        statusCodes[response.statusCode!] = (statusCodes[response.statusCode!] ?? 0) + 1;
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
  return { ...summarize(latencies, (performance.now() - started) / 1000), errors, non2xx, latencies, statusCodes };
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

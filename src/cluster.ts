import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { serveHashing } from './platform/passwords/hash-cluster.js';
import { hasher } from './platform/passwords/hash-pool.js';
import { relayHubEvents } from './platform/hub/hub-cluster.js';
import { ConnectionDealer } from './platform/process/cluster-connections.js';
import { drainTime, shutdownBound } from './platform/process/shutdown.js';

const RESTART_DELAY_MS = 1000;
/** A worker still running this close to the shutdown's bound is killed, and the primary exits. */
const KILL_BEFORE_BOUND_MS = 250;

/**
 * V8 flags for the processes that serve HTTP: a young generation of up to 64 MiB a semi-space
 * (Node 20's default is 16). At thousands of requests a second, about one process in three
 * settled, for its whole life, into promoting most of what survived each scavenge to the old
 * generation: scavenges of 5 ms instead of 0.5 and 40% more CPU a request (measured: 9 of 28
 * processes; with 64 MiB, none of 24). It costs about 40 MB a process under load. Cluster workers
 * get them here; `npm start`, the `groupnotes` command and the systemd unit pass them to a
 * single-process `serve`.
 */
export const SERVE_V8_FLAGS = ['--max-semi-space-size=64'];

/** `execArgv` with SERVE_V8_FLAGS added, but for a flag already given (there or in NODE_OPTIONS). */
export function withServeFlags(execArgv: string[], nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((arg) => arg.split('=')[0]);
  return [...execArgv, ...SERVE_V8_FLAGS.filter((flag) => !given.includes(flag.split('=')[0]))];
}

/**
 * The primary of `serve` with WEB_CONCURRENCY > 1: applies migrations once, forks the HTTP
 * workers, listens and hands each connection to a worker in turn (platform/process/cluster-connections.ts),
 * hashes their passwords on one pool, replaces a worker that dies, and on SIGTERM/SIGINT stops
 * listening, then lets every worker drain before exiting; a worker that has not exited by the
 * shutdown's bound is killed (SIGKILL).
 */
export async function runPrimary(config: Config): Promise<void> {
  const database = openDatabase(config.databaseUrl, { poolSize: 1 });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }

  // Without Redis, chat events of one worker reach the sockets of the others through here.
  relayHubEvents(cluster);
  // One pool of hashing threads for all the workers, as many as cores (hash-cluster.ts).
  const pool = hasher();
  await pool.warm();
  serveHashing(cluster, pool);
  let stopping = false;
  const running = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
  const info = (line: Record<string, unknown>) => {
    if (['trace', 'debug', 'info'].includes(config.logLevel)) console.log(JSON.stringify({ level: 30, ...line }));
  };
  const dealer = new ConnectionDealer(cluster, { host: config.host, port: config.port }, {
    listening: (url) => info({ msg: `listening at ${url}` }),
    ready: (worker, count) => info({ msg: 'worker ready', pid: worker.process.pid, ready: count }),
    failed: (error) => {
      console.error(JSON.stringify({ level: 60, msg: `cannot listen on ${config.host}:${config.port}: ${error.message}` }));
      for (const worker of running()) worker.process.kill('SIGKILL');
      process.exit(1);
    },
  });
  // A replacement due after the shutdown began is not started: nobody would stop it.
  const fork = () => {
    if (!stopping) cluster.fork({ GROUPNOTES_WORKER: '1' });
  };
  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) {
      if (running().length === 0) process.exit(0);
      return;
    }
    console.error(JSON.stringify({ level: 50, msg: 'worker died; starting another', pid: worker.process.pid, code, signal }));
    setTimeout(fork, RESTART_DELAY_MS);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (running().length === 0) process.exit(0);
    dealer.stop(signal);
    const deadline = setTimeout(() => {
      const left = running();
      console.error(JSON.stringify({ level: 50, msg: 'workers still running at the shutdown bound; killed', pids: left.map((worker) => worker.process.pid) }));
      for (const worker of left) worker.process.kill('SIGKILL');
      process.exit(1);
    }, shutdownBound(drainTime(config)) - KILL_BEFORE_BOUND_MS);
    deadline.unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  cluster.setupPrimary({ execArgv: withServeFlags(process.execArgv) });
  for (let i = 0; i < config.webConcurrency; i++) fork();
}

export function isClusterWorker(): boolean {
  return cluster.isWorker && process.env.GROUPNOTES_WORKER === '1';
}

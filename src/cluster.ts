import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { serveHashing } from './platform/hash-cluster.js';
import { hasher } from './platform/hash-pool.js';
import { relayHubEvents } from './platform/hub-cluster.js';

const RESTART_DELAY_MS = 1000;

/**
 * The primary of `serve` with WEB_CONCURRENCY > 1: applies migrations once, forks the HTTP
 * workers (they share the port; the primary hands out connections round-robin), hashes their
 * passwords on one pool, replaces a worker that dies, and on SIGTERM/SIGINT lets every worker
 * drain before exiting.
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
  const fork = () => cluster.fork({ GROUPNOTES_WORKER: '1' });
  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(JSON.stringify({ level: 50, msg: 'worker died; starting another', pid: worker.process.pid, code, signal }));
    setTimeout(fork, RESTART_DELAY_MS);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGTERM'));
  for (let i = 0; i < config.webConcurrency; i++) fork();
}

export function isClusterWorker(): boolean {
  return cluster.isWorker && process.env.GROUPNOTES_WORKER === '1';
}

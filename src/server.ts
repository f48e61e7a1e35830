import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { isClusterWorker, runPrimary } from './cluster.js';
import type { Config } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { stopAccepting } from './platform/process/drain.js';
import { leave, takeConnections } from './platform/process/cluster-connections.js';
import { PrimaryHasher } from './platform/passwords/hash-cluster.js';
import { hasher, useHasher } from './platform/passwords/hash-pool.js';
import { sweepExpired } from './maintenance.js';
import { drainTime, exitAfterClose } from './platform/process/shutdown.js';
import { PUBLIC_DIR, requireLinkedAssets } from './platform/views/assets.js';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  /**
   * Stops accepting, lets open connections run out for up to `drainMs`, finishes in-flight
   * requests, then closes the database.
   */
  close(options?: { drainMs?: number }): Promise<void>;
}

/**
 * Migrates, builds the app and listens (a cluster worker does not: its primary hands it
 * connections); the caller decides about signals.
 */
export async function startServer(config: Config, { migrate = true, listen = true } = {}): Promise<RunningServer> {
  const database = openDatabase(config.databaseUrl, { poolSize: config.databasePoolSize });
  if (migrate) await migrateToLatest(database.db);
  const app = await buildApp(config, { database });
  await hasher().warm();
  if (listen) await app.listen({ host: config.host, port: config.port });
  else await app.ready();
  app.mailSender.start();
  app.background.start();

  const sweep = setInterval(() => {
    sweepExpired(database.db).catch((error: unknown) => app.log.error({ err: error }, 'sweep of expired sessions failed'));
  }, SWEEP_INTERVAL_MS);
  sweep.unref();

  return {
    app,
    database,
    async close({ drainMs = 0 } = {}) {
      clearInterval(sweep);
      await stopAccepting(app, drainMs);
      await app.close();
      await database.close();
    },
  };
}

/**
 * `serve`: runs until SIGTERM or SIGINT, then drains and exits within drain + SHUTDOWN_MARGIN_MS
 * (platform/process/shutdown.ts); with WEB_CONCURRENCY > 1, as a cluster. It refuses to start
 * without a file pages link (in `publicDir`), before a cluster's workers would each fail on it.
 */
export async function serve(config: Config, publicDir = PUBLIC_DIR): Promise<void> {
  requireLinkedAssets(publicDir);
  const worker = isClusterWorker();
  if (config.webConcurrency > 1 && !worker) return runPrimary(config);
  // In a cluster the primary has applied the migrations already, and hashes for its workers.
  if (worker) useHasher(new PrimaryHasher());
  const server = await startServer(config, { migrate: !worker, listen: !worker });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, 'shutting down');
    const drainMs = drainTime(config);
    exitAfterClose(server.app.log, drainMs, () => server.close({ drainMs }), () => server.app.cutConnections());
  };
  // A worker drains when its primary says so, after the last connection it was handed.
  if (worker) takeConnections(server.app.server, shutdown);
  const onSignal = (signal: NodeJS.Signals) => (worker ? leave(signal) : shutdown(signal));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}

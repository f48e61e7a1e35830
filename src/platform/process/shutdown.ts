import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';

/**
 * How long a shutdown in production waits for the proxy's kept-alive connections to run out
 * before cutting what is left: longer than nginx's upstream keepalive_timeout (4 s), well under
 * systemd's TimeoutStopSec (30 s). It ends as soon as no connection is left.
 */
export const PRODUCTION_DRAIN_MS = 5_000;
/** Beyond the drain, how long a shutdown may take in all, whatever its clients do. */
export const SHUTDOWN_MARGIN_MS = 5_000;
/**
 * Before the bound, the connections still open are cut: a request whose body never comes, a
 * client that reads nothing. That lets the close finish (the server's close waits for every
 * connection); what hangs even then is ended by exiting at the bound.
 */
const CUT_BEFORE_BOUND_MS = 1_500;
const EXIT_BEFORE_BOUND_MS = 500;

export function drainTime(config: Config): number {
  return config.production ? PRODUCTION_DRAIN_MS : 0;
}

/** The time a shutdown with this drain takes at most, from the signal to the exit. */
export function shutdownBound(drainMs: number): number {
  return drainMs + SHUTDOWN_MARGIN_MS;
}

/**
 * Runs `close` and exits, 0 when it finished and 1 when it failed, within shutdownBound(drainMs)
 * whatever the clients do: near the bound `cut` destroys the connections left (logged with
 * their number), and at the bound the process exits anyway.
 */
export function exitAfterClose(log: FastifyBaseLogger, drainMs: number, close: () => Promise<void>, cut: () => number): void {
  const bound = shutdownBound(drainMs);
  const cutter = setTimeout(() => {
    const left = cut();
    if (left > 0) log.warn({ left, ms: bound - CUT_BEFORE_BOUND_MS }, 'shutdown: connections still open were cut');
  }, bound - CUT_BEFORE_BOUND_MS);
  const exit = setTimeout(() => {
    log.error({ ms: bound - EXIT_BEFORE_BOUND_MS }, 'shutdown did not finish in time; exiting anyway');
    process.exit(1);
  }, bound - EXIT_BEFORE_BOUND_MS);
  // Neither keeps the process alive by itself once everything else has ended.
  cutter.unref();
  exit.unref();
  close().then(
    () => process.exit(0),
    (error: unknown) => {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
}

import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';

/** One dependency the service cannot work without; `run` rejects when it is unusable. */
export interface HealthCheck {
  name: string;
  run(): Promise<void>;
}

export type CheckState = 'ok' | 'failing';

export interface HealthReport {
  status: 'ok' | 'failing';
  checks: Record<string, CheckState>;
  /** Time spent on all checks, in milliseconds. */
  ms: number;
}

/** A check slower than this counts as failing: a proxy or monitor must get an answer, not a hang. */
export const CHECK_TIMEOUT_MS = 2_000;

export function databaseCheck(db: Kysely<Database>): HealthCheck {
  return {
    name: 'database',
    async run() {
      await sql`select 1`.execute(db);
    },
  };
}

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs every check at once. The report names each check and its state only: the reasons go
 * to the log, since the endpoint is public.
 */
export async function runChecks(
  checks: HealthCheck[],
  onFailure: (name: string, error: unknown) => void,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<HealthReport> {
  const started = performance.now();
  const states = await Promise.all(
    checks.map(async (check): Promise<[string, CheckState]> => {
      try {
        await withTimeout(check.run(), timeoutMs);
        return [check.name, 'ok'];
      } catch (error) {
        onFailure(check.name, error);
        return [check.name, 'failing'];
      }
    }),
  );
  const ms = Math.round((performance.now() - started) * 10) / 10;
  const failing = states.some(([, state]) => state !== 'ok');
  return { status: failing ? 'failing' : 'ok', checks: Object.fromEntries(states), ms };
}

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';

// The database configurations a benchmark section runs against, chosen with BENCH_CONFIGS: each
// prepares a fresh database (a SQLite file in the run's scratch directory, or a PostgreSQL
// database created for the run and dropped after) and the app's environment for it.

const POSTGRES_SERVER = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Configuration {
  name: string;
  label: string;
  /** A fresh database named after `name` (unique within the run), the app's environment for it, and what removes it. */
  prepare(dir: string, name: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }>;
}

const sqlite = (name: string, label: string, extra: Record<string, string>): Configuration => ({
  name,
  label,
  prepare: async (dir, file) => ({ env: { DATABASE_URL: `sqlite:${join(dir, `${file}.sqlite3`)}`, ...extra }, drop: async () => {} }),
});

const postgres = (name: string, label: string, extra: Record<string, string>): Configuration => ({
  name,
  label,
  async prepare() {
    await checkRedis();
    const database = await scratchPostgres(POSTGRES_SERVER);
    // A prefix of this run's own: the channels of another deployment on this Redis stay apart.
    const env = { DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `groupnotes-bench-${process.pid}-${Date.now()}:`, ...extra };
    return { env, drop: database.drop };
  },
});

const CONFIGURATIONS: Configuration[] = [
  sqlite('sqlite', 'SQLite, as shipped', {}),
  sqlite('sqlite-uncached', 'SQLite, `PAGE_CACHE_MB=0`', { PAGE_CACHE_MB: '0' }),
  postgres('postgres', 'PostgreSQL + Redis', {}),
  postgres('postgres-uncached', 'PostgreSQL + Redis, `PAGE_CACHE_MB=0`', { PAGE_CACHE_MB: '0' }),
];

/** The configurations named in BENCH_CONFIGS (comma-separated), else `defaults`, in that order. */
export function chosenConfigurations(defaults: string[]): Configuration[] {
  const names = process.env.BENCH_CONFIGS ? process.env.BENCH_CONFIGS.split(',').map((name) => name.trim()) : defaults;
  const known = CONFIGURATIONS.map((configuration) => configuration.name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length) throw new Error(`unknown BENCH_CONFIGS ${unknown.join(', ')} (known: ${known.join(', ')})`);
  return names.map((name) => CONFIGURATIONS.find((configuration) => configuration.name === name)!);
}

/** The crowd's configurations: the issue's three (PostgreSQL with nothing kept is for `bench notes`). */
export const CROWD_CONFIGURATIONS = ['sqlite', 'sqlite-uncached', 'postgres'];

/** Without Redis the app would start anyway and serve local sockets only: fail instead. */
async function checkRedis(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 5_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis at ${REDIS_URL} does not answer (${(error as Error).message}); set BENCH_REDIS_URL`, { cause: error });
  } finally {
    redis.disconnect();
  }
}

/**
 * A new PostgreSQL database on the server of `serverUrl` (any database of it), for one
 * benchmark's run: its URL, and drop() to remove it (once the app's connections have closed).
 */
async function scratchPostgres(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
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

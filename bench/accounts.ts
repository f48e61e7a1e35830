import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { hashPassword } from '../src/platform/passwords/passwords.js';
import { SessionStore, sessionAuthHash } from '../src/platform/chain/session.js';
import { BENCH_SECRET, scratch, startApp } from './lib.js';
import { compareWithBare } from './rounds.js';
import { STORM_CLIENTS, loginStorm } from './storm.js';
import { identityKey } from '../src/platform/identity-key.js';

const ITERATIONS = 1_000_000;
const PASSWORD = 'bench-password-long-enough';
const CSRF = 'BenchCsrfSecret0123456789abcdefg';

async function seed(databaseUrl: string) {
  const database = openDatabase(databaseUrl);
  await migrateToLatest(database.db);
  const password = await hashPassword(PASSWORD, ITERATIONS);
  const user = await database.db.insertInto('users').values({ username: 'bench', username_key: identityKey('bench'), email: '', password, date_joined: Date.now() }).returningAll().executeTakeFirstOrThrow();
  // One account per storm client (bench/login-storm.ts): one username is checked at most 5 times at once.
  await database.db
    .insertInto('users')
    .values(Array.from({ length: STORM_CLIENTS }, (_, i) => ({ username: `storm${i}`, username_key: identityKey(`storm${i}`), email: '', password, date_joined: Date.now() })))
    .execute();
  const session = await new SessionStore(database.db, 86_400).create(user.id, sessionAuthHash(BENCH_SECRET, user.password), 'bench');
  await database.close();
  return { cookie: `sessionid=${session.key}; csrftoken=${CSRF}` };
}

export async function run(): Promise<void> {
  const { dir, cleanup } = scratch();
  const databaseUrl = `sqlite:${join(dir, 'bench.sqlite3')}`;
  const { cookie } = await seed(databaseUrl);
  const env = { DATABASE_URL: databaseUrl, PBKDF2_ITERATIONS: String(ITERATIONS) };
  // As deployed: WEB_CONCURRENCY left to its default (the number of cores).
  const app = await startApp(env);
  try {
    // One server process against one: the bare server is a single process, and the load generator
    // takes its share of this machine's cores too (with two workers, three busy processes take
    // turns on two cores; the figure for that is printed after).
    console.log('\n## Accounts: pages against bare node:http (32 connections; one server process each)');
    const single = await startApp({ ...env, WEB_CONCURRENCY: '1' });
    try {
      await compareWithBare('GET /accounts/login/', single, '/accounts/login/', {}, dir);
      await compareWithBare('GET /accounts/password_change/ (authenticated)', single, '/accounts/password_change/', { cookie }, dir);
    } finally {
      await single.stop();
    }
    const uncached = await startApp({ ...env, WEB_CONCURRENCY: '1', PAGE_CACHE_MB: '0' });
    try {
      await compareWithBare('GET /accounts/password_change/, page cache off', uncached, '/accounts/password_change/', { cookie }, dir);
    } finally {
      await uncached.stop();
    }
    console.log(`\n## The same page as deployed (WEB_CONCURRENCY=${process.env.WEB_CONCURRENCY ?? availableParallelism()}), the load generator on the same cores`);
    await compareWithBare('GET /accounts/password_change/ (authenticated)', app, '/accounts/password_change/', { cookie }, dir);

    await loginStorm({ app, cookie, password: PASSWORD, csrf: CSRF, iterations: ITERATIONS, dir });
  } finally {
    await app.stop();
    cleanup();
  }
}

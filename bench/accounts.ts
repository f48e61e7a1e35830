import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { hashPassword } from '../src/platform/passwords.js';
import { SessionStore, sessionAuthHash } from '../src/platform/session.js';
import { BENCH_SECRET, ROOT, compareWithBare, formatRow, measure, scratch, startApp } from './lib.js';

const ITERATIONS = 1_000_000;
const PASSWORD = 'bench-password-long-enough';
const CSRF = 'BenchCsrfSecret0123456789abcdefg';

async function seed(databaseUrl: string) {
  const database = openDatabase(databaseUrl);
  await migrateToLatest(database.db);
  const user = await database.db
    .insertInto('users')
    .values({ username: 'bench', email: '', password: await hashPassword(PASSWORD, ITERATIONS), date_joined: Date.now() })
    .returningAll()
    .executeTakeFirstOrThrow();
  const session = await new SessionStore(database.db, 86_400).create(user.id, sessionAuthHash(BENCH_SECRET, user.password), 'bench');
  await database.close();
  return { cookie: `sessionid=${session.key}; csrftoken=${CSRF}` };
}

function rawPbkdf2Rate(seconds: number): number {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/pbkdf2-rate.ts', String(ITERATIONS), '32', String(seconds)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return (JSON.parse(out) as { rate: number }).rate;
}

/** 32 clients logging in back to back for `seconds`; returns completed logins per second. */
async function loginStorm(url: string, seconds: number): Promise<{ rate: number; failures: number }> {
  const deadline = Date.now() + seconds * 1000;
  const body = new URLSearchParams({ csrfmiddlewaretoken: CSRF, username: 'bench', password: PASSWORD }).toString();
  let completed = 0;
  let failures = 0;
  const started = Date.now();
  const client = async () => {
    while (Date.now() < deadline) {
      const response = await fetch(`${url}/accounts/login/`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${CSRF}`, origin: url },
        body,
      });
      await response.arrayBuffer();
      if (response.status === 302) completed++;
      else failures++;
    }
  };
  await Promise.all(Array.from({ length: 32 }, client));
  return { rate: completed / ((Date.now() - started) / 1000), failures };
}

export async function run(): Promise<void> {
  const { dir, cleanup } = scratch();
  const databaseUrl = `sqlite:${join(dir, 'bench.sqlite3')}`;
  const { cookie } = await seed(databaseUrl);
  const app = await startApp({ DATABASE_URL: databaseUrl, PBKDF2_ITERATIONS: String(ITERATIONS) });
  try {
    console.log('\n## Accounts: pages against bare node:http (32 connections, 10 s each)');
    await compareWithBare('GET /accounts/login/', app, '/accounts/login/', {}, dir);
    await compareWithBare('GET /accounts/password_change/ (authenticated)', app, '/accounts/password_change/', { cookie }, dir);

    console.log('\n## Login storm: 32 concurrent logins at 1,000,000 PBKDF2 iterations');
    const raw = rawPbkdf2Rate(10);
    console.log(`  raw crypto.pbkdf2 rate of this machine (32 in flight): ${raw.toFixed(2)} hashes/s`);
    const page = `${app.url}/accounts/password_change/`;
    // The page is asked for at a steady 100 requests/s, as people would, not as fast as possible:
    // a closed-loop load generator would itself take the CPU the hashes need.
    const steady = { connections: 4, duration: 12, overallRate: 100, headers: { cookie } };
    const idle = await measure(page, steady);
    console.log(formatRow('authenticated page, idle (100 req/s)', idle));
    const [storm, loaded] = await Promise.all([loginStorm(app.url, 15), measure(page, steady)]);
    console.log(formatRow('authenticated page, during the storm', loaded));
    console.log(`  logins completed: ${storm.rate.toFixed(2)}/s (${storm.failures} failed) = ${((storm.rate / raw) * 100).toFixed(1)}% of the raw rate`);
    console.log(`  page p99 during the storm: ${(loaded.p99 / idle.p99).toFixed(2)}x its idle value`);
  } finally {
    await app.stop();
    cleanup();
  }
}

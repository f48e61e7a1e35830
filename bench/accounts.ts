import { execFile, execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { hashPassword } from '../src/platform/passwords.js';
import { SessionStore, sessionAuthHash } from '../src/platform/session.js';
import { BENCH_SECRET, ROOT, compareWithBare, formatRow, probe, scratch, startApp, summarize } from './lib.js';

const ITERATIONS = 1_000_000;
const STORM_CYCLES = 3;
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

/** 32 clients logging in back to back for `seconds` (bench/login-storm.ts); completed logins per second. */
function loginStorm(url: string, seconds: number): Promise<{ rate: number; failures: number }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', 'bench/login-storm.ts', url, CSRF, PASSWORD, String(seconds)], { cwd: ROOT, encoding: 'utf8' }, (error, out) => {
      if (error) reject(error);
      else resolve(JSON.parse(out) as { rate: number; failures: number });
    });
  });
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

    console.log(`\n## Login storm: 32 concurrent logins at 1,000,000 PBKDF2 iterations, ${STORM_CYCLES} cycles`);
    // This VM's CPU speed wanders by a fifth from minute to minute, so the storm runs in cycles,
    // each between two measurements of the raw rate, and the page idle and in the storm alternate
    // too. The storm and the raw rate both count completions from 3 s in until their deadline, at
    // full strength: the ramp and the drain are left out alike.
    const page = `${app.url}/accounts/password_change/`;
    // The page is asked for at a steady 100 requests/s, as people would, not as fast as possible:
    // a closed-loop load generator would itself take the CPU the hashes need.
    const steady = { rate: 100, seconds: 10, headers: { cookie } };
    const raws = [rawPbkdf2Rate(10)];
    const storms: number[] = [];
    const idle: number[] = [];
    const loaded: number[] = [];
    let failures = 0;
    for (let cycle = 0; cycle < STORM_CYCLES; cycle++) {
      idle.push(...(await probe(page, steady)).latencies);
      // The page is timed from 2 s into the 13 s storm (its clients start in a process of their
      // own, in about a second) until 1 s before its end: the storm, not its ramp.
      const storming = loginStorm(app.url, 13);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const [storm, during] = await Promise.all([storming, probe(page, steady)]);
      storms.push(storm.rate);
      failures += storm.failures;
      loaded.push(...during.latencies);
      raws.push(rawPbkdf2Rate(10));
      console.log(`  cycle ${cycle + 1}: logins ${storm.rate.toFixed(2)}/s, raw rate ${raws.at(-2)!.toFixed(2)} before and ${raws.at(-1)!.toFixed(2)} after (hashes/s)`);
    }
    const idlePage = summarize(idle, STORM_CYCLES * steady.seconds);
    const stormPage = summarize(loaded, STORM_CYCLES * steady.seconds);
    console.log(formatRow('authenticated page, idle (100 req/s)', idlePage));
    console.log(formatRow('authenticated page, during the storm', stormPage));
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const raw = mean(raws);
    console.log(`  raw crypto.pbkdf2 rate of this machine (32 in flight): ${raw.toFixed(2)} hashes/s on average (${raws.map((r) => r.toFixed(2)).join(', ')})`);
    console.log(`  logins completed: ${mean(storms).toFixed(2)}/s (${failures} failed) = ${((mean(storms) / raw) * 100).toFixed(1)}% of the raw rate`);
    console.log(`  page p99 during the storm: ${(stormPage.p99 / idlePage.p99).toFixed(2)}x its idle value`);
  } finally {
    await app.stop();
    cleanup();
  }
}

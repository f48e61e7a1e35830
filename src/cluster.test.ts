import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createUser, DEFAULT_PASSWORD, httpLoginForm, type ServeProcess, spawnServe, TEST_ITERATIONS, TEST_SECRET, type TestDatabase } from '../test/index.js';
import { SERVE_V8_FLAGS, withServeFlags } from './cluster.js';
import { openDatabase } from './db/database.js';

describe('withServeFlags', () => {
  it('adds the V8 flags for serving to what the process was started with', () => {
    expect(withServeFlags(['--import', 'tsx'], '')).toEqual(['--import', 'tsx', ...SERVE_V8_FLAGS]);
  });

  it('leaves a flag alone that was already given, on the command line or in NODE_OPTIONS', () => {
    expect(withServeFlags(['--max-semi-space-size=32'], '')).toEqual(['--max-semi-space-size=32']);
    expect(withServeFlags([], '--enable-source-maps --max-semi-space-size=16')).toEqual([]);
  });
});

/** The command lines of the processes whose parent is `pid` (Linux). */
function childCommandLines(pid: number): string[][] {
  const lines: string[][] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) lines.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean));
    } catch {
      // The process ended while we looked.
    }
  }
  return lines;
}

describe('serve as a cluster', () => {
  let testDb: TestDatabase;
  let server: ServeProcess | undefined;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    server = await spawnServe({ DATABASE_URL: testDb.url, SECRET_KEY: TEST_SECRET, WEB_CONCURRENCY: '2', REDIS_URL: '', PBKDF2_ITERATIONS: String(TEST_ITERATIONS) });
  });

  afterAll(async () => {
    await server?.stop();
    await testDb.drop();
  });

  it('runs its workers with the V8 flags for serving, though the primary was started without them', () => {
    const workers = childCommandLines(server!.child.pid!).filter((args) => args.includes('serve'));
    expect(workers).toHaveLength(2);
    for (const args of workers) expect(args).toEqual(expect.arrayContaining(SERVE_V8_FLAGS));
  });

  it("signs people in through its workers, whose passwords the primary's pool hashes", async () => {
    const database = openDatabase(testDb.url, { poolSize: 1 });
    const user = await createUser(database.db).finally(() => database.close());
    const base = `http://${server!.address}`;
    const submit = await httpLoginForm(base);
    const login = (password: string) => submit(user.username, password);
    const signedIn = await login(DEFAULT_PASSWORD);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.getSetCookie().some((cookie) => cookie.startsWith('sessionid='))).toBe(true);
    const refused = await login('not-the-password');
    expect(refused.status).toBe(400);
    expect(refused.headers.getSetCookie().some((cookie) => cookie.startsWith('sessionid='))).toBe(false);
  });
});

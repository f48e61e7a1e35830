import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createUser, DEFAULT_PASSWORD, httpLoginForm, type ServeProcess, spawnServe, TEST_SECRET, testConfig, type TestDatabase } from '../../../test/index.js';
import { type RunningServer, startServer } from '../../server.js';
import { HashPool, type Hasher, hasher, useHasher } from '../../platform/passwords/hash-pool.js';

// Logins beyond what hashing can take, over real sockets: the queue is bounded, and what does not
// fit is answered at once with 503 and Retry-After instead of waiting behind thousands of hashes.

let testDb: TestDatabase;
let server: RunningServer;
let base: string;
let processHasher: Hasher;
const pool = new HashPool(1, { maxWaiting: 2 });

beforeAll(async () => {
  processHasher = hasher();
  useHasher(pool);
  testDb = await createTestDatabase();
  // A hash of a few tens of milliseconds, so that a burst outruns one thread.
  server = await startServer(testConfig({ DATABASE_URL: testDb.url, PORT: '0', PBKDF2_ITERATIONS: '300000' }));
  const address = server.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await server.close();
  await pool.close();
  useHasher(processHasher);
  await testDb.drop();
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: string;
  /** Milliseconds from the request to its answer. */
  ms: number;
}

/** The login form of the server at `origin`, as a function that submits it. */
async function loginForm(origin = base): Promise<(username: string, password: string) => Promise<Answer>> {
  const submit = await httpLoginForm(origin);
  return async (username, password) => {
    const sent = Date.now();
    const response = await submit(username, password, { signal: AbortSignal.timeout(20_000) });
    const body = await response.text();
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body, ms: Date.now() - sent };
  };
}

describe('logins beyond what hashing can take', () => {
  it('answers some of a burst 503 with Retry-After and a styled page at once, the rest as usual, and never hangs', async () => {
    const login = await loginForm();
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(`burst${i}`, 'wrong-password')));
    expect(Date.now() - started).toBeLessThan(15_000);

    const refused = answers.filter((answer) => answer.status === 503);
    const checked = answers.filter((answer) => answer.status === 400);
    expect(refused.length).toBeGreaterThan(0);
    expect(checked.length).toBeGreaterThan(0);
    expect(refused.length + checked.length).toBe(30);
    for (const answer of refused) {
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(answer.body).toContain('class="error-page"');
      expect(answer.body).toContain('Signing in is very busy right now.');
    }
    // A refused login was never checked, so it does not count against the address.
    const counted = await server.database.db.selectFrom('login_failures').select('id').where('scope', 'like', 'ip:%').execute();
    expect(counted).toHaveLength(checked.length);
  });

  it('signs in as usual once the burst is over: no place in the queue was lost', async () => {
    const user = await createUser(server.database.db);
    const login = await loginForm();
    for (let i = 0; i < 3; i++) expect((await login(user.username, DEFAULT_PASSWORD)).status).toBe(302);
    expect(pool.waiting).toBe(0);
  });
});

describe('logins beyond what hashing can take, in a cluster', () => {
  let clusterDb: TestDatabase;
  let serve: ServeProcess | undefined;
  beforeAll(async () => {
    clusterDb = await createTestDatabase();
    // The primary's pool of one thread per core takes 18 jobs per core, whatever a hash costs: a
    // fifth of the default cost still outruns it with a burst of 90, and the jobs it takes end
    // within the test's time on a loaded two-core machine (at the full cost they took ~25 s there).
    serve = await spawnServe({ DATABASE_URL: clusterDb.url, SECRET_KEY: TEST_SECRET, WEB_CONCURRENCY: '2', REDIS_URL: '', PBKDF2_ITERATIONS: '200000' });
  });
  afterAll(async () => {
    await serve?.stop();
    await clusterDb.drop();
  });

  it("answers what the primary's pool cannot take 503 with Retry-After through the workers, at once, and the rest as usual", async () => {
    const login = await loginForm(`http://${serve!.address}`);
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 90 }, (_, i) => login(`cluster-burst${i}`, 'wrong-password')));
    expect(Date.now() - started).toBeLessThan(25_000);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 400).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 400 && status !== 503)).toEqual([]);
    for (const answer of answers.filter((candidate) => candidate.status === 503)) {
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(answer.ms).toBeLessThan(5_000);
    }
  }, 40_000);
});

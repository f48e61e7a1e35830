import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../../test/database.js';
import { DEFAULT_PASSWORD, createUser, testConfig } from '../../../test/helpers.js';
import { type RunningServer, startServer } from '../../server.js';
import { HashPool, type Hasher, hasher, useHasher } from '../../platform/hash-pool.js';

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

async function loginForm(): Promise<(username: string, password: string) => Promise<{ status: number; retryAfter: string | null; body: string }>> {
  const page = await fetch(`${base}/accounts/login/`);
  const csrf = /csrftoken=([^;]+)/.exec(page.headers.getSetCookie().join('\n'))![1]!;
  return async (username, password) => {
    const response = await fetch(`${base}/accounts/login/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${csrf}`, origin: base },
      body: new URLSearchParams({ csrfmiddlewaretoken: csrf, username, password }),
      signal: AbortSignal.timeout(20_000),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
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

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, connectChat, createGroup, createUser, listen, loggedIn, TEST_SECRET, type TestApp } from '../../test/index.js';

// A change made outside the app (the CLI's changepassword) ended the
// user's sessions in the database, but told no running instance: the user's open chat sockets
// stayed until the sweep. With REDIS_URL the command publishes the same event as the app.
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const PREFIX = `groupnotes-test-${randomBytes(6).toString('hex')}:`;
const TSX = new URL('../../node_modules/.bin/tsx', import.meta.url).pathname;
const CLI = new URL('../cli.ts', import.meta.url).pathname;

let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp({ REDIS_URL, REDIS_PREFIX: PREFIX });
  address = await listen(t.app);
});
afterAll(() => t.close());

function groupnotes(args: string[], input: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(TSX, [CLI, ...args], {
    env: { ...process.env, DATABASE_URL: t.config.databaseUrl, SECRET_KEY: TEST_SECRET, PBKDF2_ITERATIONS: '1000', LOG_LEVEL: 'silent', REDIS_URL, REDIS_PREFIX: PREFIX },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input);
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

it("changepassword from the CLI closes that user's open chat socket with 4403 within a second", async () => {
  const { user, browser } = await loggedIn(t);
  const bystander = await loggedIn(t);
  const group = await createGroup(t.db, await createUser(t.db), [user, bystander.user]);
  const path = `/ws/groups/${group.id}/chat/`;
  const client = await connectChat(address, path, { sessionKey: browser.cookies.get('sessionid')! });
  const other = await connectChat(address, path, { sessionKey: bystander.browser.cookies.get('sessionid')! });

  const result = await groupnotes(['changepassword', user.username, '--password-stdin'], 'another-river-stone\n');
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(result.stdout).toMatch(/^password changed for \S+; 1 session\(s\) ended\n/);
  const closed = await Promise.race([client.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000))]);
  expect(closed?.code).toBe(4403);
  expect(other.ws.readyState).toBe(other.ws.OPEN);
  other.close();
});

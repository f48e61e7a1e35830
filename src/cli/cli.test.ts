import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { createTestDatabase, spawnServe, TEST_SECRET, type TestDatabase } from '../../test/index.js';

// The real command, as a user runs it: a process with an environment, stdin, stdout and an exit code.
const TSX = new URL('../../node_modules/.bin/tsx', import.meta.url).pathname;
const CLI = new URL('../cli.ts', import.meta.url).pathname;

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.drop());

function groupnotes(args: string[], input = '') {
  const result = spawnSync(TSX, [CLI, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: testDb.url, SECRET_KEY: TEST_SECRET, PBKDF2_ITERATIONS: '1000', LOG_LEVEL: 'silent' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function users() {
  const database = openDatabase(testDb.url);
  try {
    return await database.db.selectFrom('users').select(['username', 'email']).execute();
  } finally {
    await database.close();
  }
}

describe('groupnotes CLI', () => {
  it('migrate applies the migrations, then reports none pending', () => {
    const first = groupnotes(['migrate']);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('applied 0001_accounts');
    const second = groupnotes(['migrate']);
    expect(second.stdout).toBe('no migrations to apply\n');
  });

  it('createuser creates a user from a password on stdin', async () => {
    const result = groupnotes(['createuser', 'carol', '--email', 'carol@example.com', '--password-stdin'], 'tidal-pool-fern\n');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^created user carol \(id \d+\)\n$/);
    expect(await users()).toContainEqual({ username: 'carol', email: 'carol@example.com' });
  });

  it.each([
    [['createuser', 'carol', '--password-stdin'], 'tidal-pool-fern', 'groupnotes: A user with that username already exists.\n'],
    [['createuser', 'bad name', '--password-stdin'], 'tidal-pool-fern', 'groupnotes: Enter a valid username: letters, digits and @ . + - _ only.\n'],
    [['createuser', 'dave', '--password-stdin'], '123', 'groupnotes: This password is too short. It must contain at least 8 characters.\n'],
    [['createuser', 'dave', '--bogus'], '', "groupnotes: createuser: Unknown option '--bogus'\n"],
    [['changepassword', 'nobody', '--password-stdin'], 'tidal-pool-fern', 'groupnotes: no user named "nobody"\n'],
    [['frobnicate'], '', 'groupnotes: unknown command "frobnicate" (try: groupnotes --help)\n'],
    [['createuser'], '', 'groupnotes: usage: groupnotes createuser <username> [--email E] [--password-stdin] [--admin]\n'],
  ])('%j prints one clear line and exits 1', (args, input, message) => {
    const result = groupnotes(args, input);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(message);
  });

  it('changes nothing when createuser fails', async () => {
    groupnotes(['createuser', 'erin', '--password-stdin'], 'short');
    expect((await users()).map((user) => user.username)).not.toContain('erin');
  });

  it('changepassword sets the password and ends the user’s sessions', () => {
    const result = groupnotes(['changepassword', 'carol', '--password-stdin'], 'another-river-stone\n');
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('password changed for carol; 0 session(s) ended\n');
  });

  it('clearsessions reports what it deleted', () => {
    const result = groupnotes(['clearsessions']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('deleted 0 expired session(s)\n');
  });

  it('a bad configuration value stops with one line', () => {
    const result = spawnSync(TSX, [CLI, 'migrate'], { encoding: 'utf8', env: { ...process.env, PORT: 'x', SECRET_KEY: TEST_SECRET } });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('groupnotes: PORT must be a whole number from 0 to 65535 (got "x")\n');
  });
});

describe('serve in production', () => {
  const production = { NODE_ENV: 'production', ALLOWED_HOSTS: '127.0.0.1', PUBLIC_URL: 'https://notes.example.com', SECRET_KEY: TEST_SECRET, WEB_CONCURRENCY: '1', REDIS_URL: '' };

  it('refuses to start without SMTP_URL, with one line and exit 1', async () => {
    // Bounded: a server that starts instead is killed with its workers, and the test fails on its status.
    const child = spawn(TSX, [CLI, 'serve'], { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...production, DATABASE_URL: testDb.url, PORT: '0', SMTP_URL: '' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    expect(stderr).toBe('groupnotes: SMTP_URL must be set when NODE_ENV=production (smtp://... or smtps://..., or off to send no mail)\n');
    expect(status).toBe(1);
  }, 30_000);

  it('starts with SMTP_URL=off (mail turned off on purpose)', async () => {
    const server = await spawnServe({ ...production, DATABASE_URL: testDb.url, SMTP_URL: 'off' });
    try {
      expect((await fetch(`http://${server.address}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

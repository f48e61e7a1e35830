import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createTestDatabase, TEST_SECRET, type TestDatabase } from '../../test/index.js';

// The data commands as a user runs them: a process with an environment, stdout, stderr and an exit code.
const TSX = new URL('../../node_modules/.bin/tsx', import.meta.url).pathname;
const CLI = new URL('../cli.ts', import.meta.url).pathname;
const FIXTURE = new URL('../../test/fixtures/django-dumpdata-sample.json', import.meta.url).pathname;

function groupnotes(database: TestDatabase, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(TSX, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: database.url, SECRET_KEY: TEST_SECRET, PBKDF2_ITERATIONS: '1000', LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function usernames(database: TestDatabase): Promise<string[]> {
  const handle = openDatabase(database.url);
  try {
    return (await handle.db.selectFrom('users').select('username').orderBy('id').execute()).map((row) => row.username);
  } finally {
    await handle.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'groupnotes-cli-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('groupnotes import-django', () => {
  let empty: TestDatabase;
  let filled: TestDatabase;
  beforeAll(async () => {
    [empty, filled] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([empty.drop(), filled.drop()]);
  });

  it('imports the dump into an empty database and prints the report', async () => {
    const result = groupnotes(filled, ['import-django', FIXTURE]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^imported from 18 entries:\n {2}auth\.user\s+3 imported\n/);
    expect(result.stdout).toContain('owner olenaa5cd, its earliest member');
    expect(result.stdout).toMatch(/\n {2}notes_app\.reminder\s+1 imported\n/);
    expect(await usernames(filled)).toEqual(['olenaa5cd', 'tarasa5cd', 'irynaa5cd']);
  });

  it('refuses a database that has users, with one line, changing nothing', async () => {
    const result = groupnotes(filled, ['import-django', FIXTURE]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('groupnotes: the database already has users: import-django loads into an empty database only (run it before createuser); nothing was imported\n');
    expect(await usernames(filled)).toEqual(['olenaa5cd', 'tarasa5cd', 'irynaa5cd']);
  });

  const whole = readFileSync(FIXTURE, 'utf8');
  it.each([
    ['truncated', whole.slice(0, -40), /^groupnotes: \S+: not valid JSON in entry 18 \(the file looks truncated\): [^\n]*; nothing was imported\n$/],
    ['not a list', '{"model": "auth.user"}', /^groupnotes: \S+: expected a list of \{"model", "pk", "fields"\} entries \(got an object\); nothing was imported\n$/],
    ['a wrong type', whole.replace('"title": "Private diary a5cd"', '"title": ["Private diary"]'), /^groupnotes: \S+: entry 15 \(notes_app\.note pk 517\): field "title" must be text \(got a list\); nothing was imported\n$/],
  ])('a file %s: exit 1, one line, nothing imported', async (name, content, message) => {
    const path = join(dir, `${name.replace(/\W/g, '-')}.json`);
    writeFileSync(path, content);
    const result = groupnotes(empty, ['import-django', path]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(await usernames(empty)).toEqual([]);
  });

  it('a missing file: exit 1, one line', () => {
    const result = groupnotes(empty, ['import-django', join(dir, 'nowhere.json')]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^groupnotes: \S+nowhere\.json: cannot read it \(ENOENT\); nothing was imported\n$/);
  });
});

describe('groupnotes seed-demo', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('creates the demo users and prints their logins', async () => {
    const result = groupnotes(database, ['seed-demo']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/sign in at \/accounts\/login\/ as:\n {2}demo-ada {3}[A-Za-z0-9]{20}\n {2}demo-ben {3}[A-Za-z0-9]{20}\n {2}demo-cleo {2}[A-Za-z0-9]{20}\n$/);
    expect(await usernames(database)).toEqual(['demo-ada', 'demo-ben', 'demo-cleo']);
  });

  it('refuses to run twice without --force, with one line', async () => {
    const result = groupnotes(database, ['seed-demo']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('groupnotes: the demo data is already there (demo-ada, demo-ben, demo-cleo); seed-demo --force replaces it\n');
  });

  it('refuses in production without --force, before touching the database', async () => {
    const production = await createTestDatabase();
    const handle = openDatabase(production.url);
    await migrateToLatest(handle.db);
    await handle.close();
    try {
      const result = groupnotes(production, ['seed-demo'], { NODE_ENV: 'production', PUBLIC_URL: 'https://notes.example.com', ALLOWED_HOSTS: 'notes.example.com', SMTP_URL: 'off' });
      expect(result.status).toBe(1);
      expect(result.stderr).toBe('groupnotes: refusing to add demo users with printed passwords to a production instance (NODE_ENV=production); seed-demo --force if you mean it\n');
      expect(await usernames(production)).toEqual([]);
    } finally {
      await production.drop();
    }
  });
});

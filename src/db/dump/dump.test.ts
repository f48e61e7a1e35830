import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../database.js';
import { migrateToLatest } from '../migrate.js';
import { addShoppingItem, addTodoItem, buildTestApp, createGroup, createNote, createNotebook, createShoppingList, createTag, createTestDatabase, createTodoList, createUser, DEFAULT_PASSWORD, TEST_SECRET, type TestApp, TestBrowser, testConfig, type TestDatabase } from '../../../test/index.js';
import { buildApp } from '../../app.js';
import { seedDemo } from '../../features/demo/seed.js';
import { writeDump } from './dump.js';
import { DumpError, loadDump } from './load.js';

// The real command, as a user runs it: a process with an exit code and one line on stderr.
const TSX = new URL('../../../node_modules/.bin/tsx', import.meta.url).pathname;
const CLI = new URL('../../cli.ts', import.meta.url).pathname;

function groupnotes(databaseUrl: string, args: string[]) {
  const result = spawnSync(TSX, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: databaseUrl, SECRET_KEY: TEST_SECRET, LOG_LEVEL: 'silent' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function dumpText(database: DatabaseHandle): Promise<string> {
  let text = '';
  await writeDump(database.db, database.dialect, async (chunk) => {
    text += chunk;
  });
  return text;
}

async function* linesOfText(text: string): AsyncGenerator<string> {
  for (const line of text.split('\n')) yield line;
}

async function withFreshDatabase<T>(kind: 'same' | 'sqlite', work: (database: DatabaseHandle, url: string) => Promise<T>): Promise<T> {
  let testDb: TestDatabase;
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'groupnotes-dump-'));
    testDb = { url: `sqlite:${join(dir, 'db.sqlite3')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  } else {
    testDb = await createTestDatabase();
  }
  const database = openDatabase(testDb.url);
  try {
    await migrateToLatest(database.db);
    return await work(database, testDb.url);
  } finally {
    await database.close();
    await testDb.drop();
  }
}

let t: TestApp;
let original: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'groupnotes-dumpfiles-'));
  t = await buildTestApp();
  // A little of everything: accounts, a group with chat, notes with a notebook and tags, lists
  // shared with a person and with the group, a notification, text that JSON must escape.
  const alice = await createUser(t.db, { username: 'alice', email: 'alice@example.com' });
  const bob = await createUser(t.db, { username: 'Bób' });
  const carol = await createUser(t.db, { username: 'carol' });
  const group = await createGroup(t.db, alice, [bob, carol], 'Family "Ω"');
  const notebook = await createNotebook(t.db, alice, { title: 'Recipes', color: '#aa3300' });
  const tags = [await createTag(t.db, alice, { name: 'soup' }), await createTag(t.db, alice, { name: 'winter' })];
  const borsch = await createNote(t.db, alice, { title: 'Borsch', content: 'Beets\n"quoted"\u2028line\\end 🍲', notebook_id: notebook.id, tags, group_id: group.id });
  await createNote(t.db, bob, { title: 'Private', content: '' });
  const todo = await createTodoList(t.db, alice, { title: 'Chores', sharedWith: [bob] });
  const sweep = await addTodoItem(t.db, todo, { text: 'Sweep', due_date: '2026-12-01', assignee: bob });
  const shopping = await createShoppingList(t.db, carol, { title: 'Market', group, group_permission: 'tick', tickers: [alice] });
  const milk = await addShoppingItem(t.db, shopping, { name: 'Milk', estimated_price_cents: 129 });
  const now = Date.now();
  // Who added and ticked what (migration 0017) round-trips too.
  await t.db.updateTable('todo_items').set({ created_by: alice.id, is_done: 1, done_by: bob.id, done_at: now }).where('id', '=', sweep.id).execute();
  await t.db.updateTable('shopping_items').set({ created_by: carol.id, is_done: 1, done_by: alice.id, done_at: now }).where('id', '=', milk.id).execute();
  await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: bob.id, content: 'hi all', created_at: now }).execute();
  await t.db.insertInto('notifications').values({ user_id: bob.id, kind: 'group.added', text: 'alice added you', link: `/groups/${group.id}/`, created_at: now, read_at: null }).execute();
  await t.db
    .insertInto('reminders')
    .values({ note_id: borsch.id, owner_id: alice.id, local_time: '2030-01-07T09:00', time_zone: 'Europe/Kyiv', repeat: 'weekly', message: 'Buy "beets"', next_due_at: Date.UTC(2030, 0, 7, 7), created_at: now })
    .execute();
  // Group activity is history, not worked out from other rows: a dump carries it.
  await t.db.insertInto('group_activity').values({ group_id: group.id, kind: 'note.shared', actor_id: alice.id, member_id: null, object_kind: 'note', object_id: borsch.id, count: 2, created_at: now, updated_at: now }).execute();
  // A session is not data: a dump must not carry it.
  await new TestBrowser(t.app).login('alice', DEFAULT_PASSWORD);
  original = await dumpText(t.database);
});

afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('dumpdata and loaddata', () => {
  it('dumps every table of data, in a row per line, and no sessions', () => {
    const lines = original.split('\n');
    expect(JSON.parse(original)).toMatchObject({ format: 'groupnotes-dump', version: 1 });
    const tables = (JSON.parse(original) as { tables: { table: string; rows: unknown[][] }[] }).tables;
    const names = tables.map((table) => table.table);
    for (const name of ['users', 'groups', 'group_members', 'notes', 'note_tags', 'notebooks', 'tags', 'todo_lists', 'todo_items', 'todo_list_shares', 'shopping_lists', 'shopping_items', 'chat_messages', 'notifications', 'reminders', 'group_activity']) {
      expect(names).toContain(name);
      expect(tables.find((table) => table.table === name)!.rows.length).toBeGreaterThan(0);
    }
    expect(names).not.toContain('sessions');
    expect(original).not.toContain('view_version');
    for (const column of ['permission', 'group_permission', 'created_by', 'done_by', 'done_at', 'assignee_id']) expect(original, column).toContain(`"${column}"`);
    // Parents come before the rows that refer to them.
    expect(names.indexOf('users')).toBeLessThan(names.indexOf('notes'));
    expect(names.indexOf('notes')).toBeLessThan(names.indexOf('note_tags'));
    expect(names.indexOf('notes')).toBeLessThan(names.indexOf('reminders'));
    expect(lines.some((line) => line.startsWith('[') && line.includes('Borsch'))).toBe(true);
  });

  it('loads into a fresh database with the same ids, and a second dump is the same bytes', async () => {
    await withFreshDatabase('same', async (database) => {
      await loadDump(database.db, database.dialect, linesOfText(original));
      expect(await dumpText(database)).toBe(original);
      // New rows continue after the loaded ids (PostgreSQL's identity sequences were moved on).
      const maxId = (await database.db.selectFrom('notes').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()).id as number;
      const alice = await database.db.selectFrom('users').selectAll().where('username', '=', 'alice').executeTakeFirstOrThrow();
      const note = await createNote(database.db, alice);
      expect(note.id).toBe(maxId + 1);
      // The triggers set aside during the load are back: the new note moved its owner's view version.
      const after = await database.db.selectFrom('users').select('view_version').where('id', '=', alice.id).executeTakeFirstOrThrow();
      expect(after.view_version).toBe(alice.view_version + 1);
    });
  });

  it('carries data from one kind of database to the other and back unchanged', async () => {
    // From the database under test (PostgreSQL in CI's second run) to SQLite, and back to a new
    // database of the first kind.
    await withFreshDatabase('sqlite', async (sqlite) => {
      await loadDump(sqlite.db, sqlite.dialect, linesOfText(original));
      const fromSqlite = await dumpText(sqlite);
      expect(fromSqlite).toBe(original);
      await withFreshDatabase('same', async (again) => {
        await loadDump(again.db, again.dialect, linesOfText(fromSqlite));
        expect(await dumpText(again)).toBe(original);
      });
    });
  });

  it('seed-demo, dump, load into the other kind of database, dump again: the same bytes', async () => {
    await withFreshDatabase('same', async (seeded) => {
      await seedDemo(seeded.db, seeded.dialect, { iterations: 1000 });
      const first = await dumpText(seeded);
      expect(first).toContain('demo-ada');
      // To SQLite (from PostgreSQL in CI's second run), then back to the first kind.
      await withFreshDatabase('sqlite', async (sqlite) => {
        await loadDump(sqlite.db, sqlite.dialect, linesOfText(first));
        expect(await dumpText(sqlite)).toBe(first);
        await withFreshDatabase('same', async (again) => {
          await loadDump(again.db, again.dialect, linesOfText(await dumpText(sqlite)));
          expect(await dumpText(again)).toBe(first);
        });
      });
    });
  });

  it('loaded users sign in with their passwords and see their notes', async () => {
    const file = join(dir, 'signin.json');
    writeFileSync(file, original);
    const target = await createTestDatabase();
    try {
      expect(groupnotes(target.url, ['loaddata', file])).toMatchObject({ status: 0, stderr: '' });
      // The running app on the loaded database: alice's group note is on her list.
      const database = openDatabase(target.url);
      try {
        const app = await buildApp(testConfig({ DATABASE_URL: target.url }), { database });
        await app.ready();
        try {
          const browser = new TestBrowser(app);
          await browser.login('alice', DEFAULT_PASSWORD);
          const page = await browser.get('/notes/');
          expect(page.statusCode).toBe(200);
          expect(page.body).toContain('Borsch');
          // The search index was rebuilt (SQLite) or worked out (PostgreSQL) for the loaded notes.
          const found = await browser.get('/notes/?q=beets');
          expect(found.body).toContain('Borsch');
          expect((await browser.get('/notes/?q=nothingmatches')).body).not.toContain('Borsch');
        } finally {
          await app.close();
        }
      } finally {
        await database.close();
      }
    } finally {
      await target.drop();
    }
  });

  it('writes a file through the command line, without a progress bar when not on a terminal', () => {
    const file = join(dir, 'cli.json');
    const result = groupnotes(t.config.databaseUrl, ['dumpdata', file]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^dumped \d+ rows of \d+ tables to .*cli\.json\n$/);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('refuses a database that holds data unless --replace, which replaces it all', async () => {
    const file = join(dir, 'replace.json');
    writeFileSync(file, original);
    await withFreshDatabase('same', async (database, url) => {
      await createUser(database.db, { username: 'zed' });
      const before = await dumpText(database);
      const refused = groupnotes(url, ['loaddata', file]);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toBe(`groupnotes: ${file}: the database already holds data (table users); load with --replace to delete it all first; nothing was loaded\n`);
      expect(await dumpText(database)).toBe(before);
      const replaced = groupnotes(url, ['loaddata', file, '--replace']);
      expect(replaced.stderr).toBe('');
      expect(replaced.status).toBe(0);
      expect(await dumpText(database)).toBe(original);
    });
  });

  const lines = () => original.split('\n');
  const row = (table: string, match: string) => lines().findIndex((line, index) => index > lines().findIndex((l) => l.startsWith(`{"table":"${table}"`) || l.startsWith(`,{"table":"${table}"`)) && line.includes(match));
  const badFiles: [string, () => string, RegExp][] = [
    ['a truncated file', () => original.slice(0, Math.floor(original.length * 0.6)), /^groupnotes: .*: line \d+: (not a complete row of \w+ \(is the file truncated\?\)|not the start of a table \(is the file truncated\?\)|the file ends (inside table \w+|before the end of the dump): it is truncated); nothing was loaded\n$/],
    ['a file cut at a line end', () => lines().slice(0, -3).join('\n'), /^groupnotes: .*: line \d+: the file ends (inside table \w+|before the end of the dump): it is truncated; nothing was loaded\n$/],
    ['another format version', () => original.replace('"version":1', '"version":2'), /^groupnotes: .*: line 1: the dump is of format version 2; this groupnotes reads version 1; nothing was loaded\n$/],
    ['another schema', () => original.replace(/"schema":"[^"]+"/, '"schema":"0001_accounts"'), /^groupnotes: .*: line 1: the dump was written at schema "0001_accounts" and this groupnotes is at \w+: load it with the version that wrote it, then upgrade; nothing was loaded\n$/],
    ['not a dump', () => '[{"model":"auth.user","pk":1,"fields":{}}]', /^groupnotes: .*: line 1: not a groupnotes dump \(written by "groupnotes dumpdata"\); nothing was loaded\n$/],
    [
      'a dangling reference',
      () => {
        const all = lines();
        const index = row('notes', 'Private');
        all[index] = all[index]!.replace(/^(,?\[\d+,)\d+/, '$1999');
        return all.join('\n');
      },
      /^groupnotes: .*: line \d+: entry \d+ \(notes, field owner_id\): refers to users id 999, which is not in the dump before it; nothing was loaded\n$/,
    ],
    [
      'a wrong type',
      () => {
        const all = lines();
        const index = row('todo_items', 'Sweep');
        all[index] = all[index]!.replace('"Sweep"', '42');
        return all.join('\n');
      },
      /^groupnotes: .*: line \d+: entry \d+ \(todo_items, field text\): expected a text, got number 42; nothing was loaded\n$/,
    ],
    [
      'a duplicate id',
      () => {
        const all = lines();
        const index = row('notes', 'Private');
        all.splice(index + 1, 0, all[index]!.startsWith(',') ? all[index]! : `,${all[index]}`);
        return all.join('\n');
      },
      /^groupnotes: .*: entries \d+-\d+ \(notes\): the database refused them: .+; nothing was loaded\n$/,
    ],
  ];

  it.each(badFiles)('%s: exits 1 with one line and stores nothing', async (_name, make, message) => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, make());
    await withFreshDatabase('same', async (database, url) => {
      const before = await dumpText(database);
      const result = groupnotes(url, ['loaddata', file]);
      expect(result.stderr).toMatch(message);
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(await dumpText(database)).toBe(before);
    });
  });

  it('a missing file or argument is one line and exit 1', () => {
    const missing = groupnotes(t.config.databaseUrl, ['loaddata', join(dir, 'nope.json')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^groupnotes: cannot read .*nope\.json: ENOENT.*\n$/);
    const usage = groupnotes(t.config.databaseUrl, ['loaddata']);
    expect(usage).toMatchObject({ status: 1, stderr: 'groupnotes: usage: groupnotes loaddata <file> [--replace]\n' });
  });

  it('an error thrown inside the load leaves nothing behind (DumpError from the reader)', async () => {
    await withFreshDatabase('same', async (database) => {
      const before = await dumpText(database);
      const cut = lines().slice(0, row('notes', 'Private') + 1).join('\n');
      await expect(loadDump(database.db, database.dialect, linesOfText(cut))).rejects.toBeInstanceOf(DumpError);
      expect(await dumpText(database)).toBe(before);
    });
  });
});

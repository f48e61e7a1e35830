import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { searchWords } from '../src/db/search-words.js';
import { BENCH_SECRET, ROOT, scratch } from './lib.js';

// Data section of `npm run bench`: how long `groupnotes dumpdata` and `loaddata` take, and the
// most memory they hold, at BENCH_DATA_NOTES notes (default 100,000; e.g. 100000,1000000), on
// SQLite and on PostgreSQL. A small database made by the commands themselves is dumped, and its
// notes and their tags are multiplied in the dump's own layout; that file is loaded into an empty
// database of each kind and dumped again, which must give the same bytes. Each command runs as its
// own process, timed by /usr/bin/time (wall clock and peak resident memory).

const SIZES = (process.env.BENCH_DATA_NOTES ?? '100000').split(',').map(Number);
const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLI = join(ROOT, 'dist/cli.js');
const USERS = ['ada', 'bohdan', 'chen'];

interface Run {
  seconds: number;
  peakMb: number;
}

function groupnotes(databaseUrl: string, args: string[], input = ''): Run {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, CLI, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: databaseUrl, SECRET_KEY: BENCH_SECRET, LOG_LEVEL: 'silent', PBKDF2_ITERATIONS: '1000' },
  });
  const [seconds, kb] = (result.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  if (result.status !== 0 || seconds === undefined || kb === undefined) throw new Error(`groupnotes ${args.join(' ')} failed: ${result.stderr}`);
  return { seconds, peakMb: kb / 1024 };
}

/** Three users in a group, each with a notebook and a tag, and a note: the rows the notes refer to. */
async function smallDatabase(url: string): Promise<void> {
  for (const name of USERS) groupnotes(url, ['createuser', name, '--password-stdin'], 'bench-password-123\n');
  groupnotes(url, ['creategroup', 'family', '--owner', USERS[0]!]);
  for (const name of USERS.slice(1)) groupnotes(url, ['addmember', `${USERS[0]}/family`, name]);
  const database = openDatabase(url);
  try {
    await migrateToLatest(database.db);
    const now = 1_700_000_000_000;
    for (const user of await database.db.selectFrom('users').select('id').execute()) {
      await database.db.insertInto('notebooks').values({ owner_id: user.id, title: 'Journal', title_key: 'journal', description: '', color: '#336699', created_at: now, updated_at: now }).execute();
      await database.db.insertInto('tags').values({ owner_id: user.id, name: 'daily', name_key: 'daily', color: '#996633', created_at: now }).execute();
    }
  } finally {
    await database.close();
  }
}

const WORDS = 'the of and to in is was for on that with as by at from his her an were are which this be or have one had not but what all when there can'.split(' ');

/** A note's value for each column, by name: every note refers to its owner's notebook and tag (ids 1..3). */
function noteRow(columns: string[], id: number): unknown[] {
  const owner = (id % USERS.length) + 1;
  let content = '';
  for (let i = 0; content.length < 400; i += 1) content += `${WORDS[(id * 7 + i * 13) % WORDS.length]} `;
  const values: Record<string, unknown> = {
    id, owner_id: owner, title: `Note ${id}`, content: content.trim(), excerpt: content.slice(0, 120).trim(), search_words: searchWords(`Note ${id}`, content), notebook_id: owner, group_id: id % 4 === 0 ? 1 : null,
    priority: id % 4, is_pinned: id % 50 === 0 ? 1 : 0, is_archived: id % 20 === 0 ? 1 : 0, created_at: 1_700_000_000_000 + id * 1000, updated_at: 1_700_000_000_000 + id * 1000,
  };
  return columns.map((column) => {
    if (!(column in values)) throw new Error(`bench/data.ts does not know the notes column ${column}`);
    return values[column];
  });
}

/** The small dump with its notes and their tags replaced by `notes` generated ones. */
async function writeBigDump(small: string, path: string, notes: number): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  let skipping = false;
  for (const line of readFileSync(small, 'utf8').split('\n').slice(0, -1)) {
    if (skipping) {
      if (line !== ']}') continue;
      skipping = false;
    }
    await write(`${line}\n`);
    const start = /^,?\{"table":"(notes|note_tags)","columns":(\[[^\]]*\])/.exec(line);
    if (!start) continue;
    skipping = true;
    const columns = JSON.parse(start[2]!) as string[];
    let text = '';
    for (let id = 1; id <= notes; id += 1) {
      const row = start[1] === 'notes' ? noteRow(columns, id) : columns.map((column) => (column === 'note_id' ? id : (id % USERS.length) + 1));
      text += `${id === 1 ? '' : ','}${JSON.stringify(row)}\n`;
      if (text.length > 1 << 16) {
        await write(text);
        text = '';
      }
    }
    await write(text);
  }
  out.end();
  await once(out, 'finish');
}

async function postgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `groupnotes_bench_data_${process.pid}`;
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

function row(label: string, run: Run): string {
  return `| ${label.padEnd(40)} | ${run.seconds.toFixed(1).padStart(7)} s | ${run.peakMb.toFixed(0).padStart(5)} MB |`;
}

export async function run(): Promise<void> {
  const work = scratch();
  try {
    const small = join(work.dir, 'small.json');
    await smallDatabase(`sqlite:${join(work.dir, 'small.sqlite3')}`);
    groupnotes(`sqlite:${join(work.dir, 'small.sqlite3')}`, ['dumpdata', small]);
    console.log('\n## dumpdata / loaddata (one process each; wall clock, peak resident memory)\n');
    console.log(`| ${'command'.padEnd(40)} | ${'time'.padStart(9)} | ${'peak'.padStart(8)} |`);
    console.log(`|${'-'.repeat(42)}|${'-'.repeat(11)}|${'-'.repeat(10)}|`);
    for (const notes of SIZES) {
      const file = join(work.dir, `dump-${notes}.json`);
      await writeBigDump(small, file, notes);
      const megabytes = (statSync(file).size / 1e6).toFixed(0);
      const sqlite = `sqlite:${join(work.dir, `load-${notes}.sqlite3`)}`;
      console.log(row(`loaddata ${notes} notes (${megabytes} MB), SQLite`, groupnotes(sqlite, ['loaddata', file])));
      const again = join(work.dir, `again-${notes}.json`);
      console.log(row(`dumpdata ${notes} notes, SQLite`, groupnotes(sqlite, ['dumpdata', again])));
      if (readFileSync(again).compare(readFileSync(file)) !== 0) throw new Error('the SQLite dump differs from the file loaded');
      const postgres = await postgresDatabase();
      try {
        console.log(row(`loaddata ${notes} notes, PostgreSQL`, groupnotes(postgres.url, ['loaddata', file])));
        const fromPostgres = join(work.dir, `pg-${notes}.json`);
        console.log(row(`dumpdata ${notes} notes, PostgreSQL`, groupnotes(postgres.url, ['dumpdata', fromPostgres])));
        if (readFileSync(fromPostgres).compare(readFileSync(file)) !== 0) throw new Error('the PostgreSQL dump differs from the file loaded');
      } finally {
        await postgres.drop();
      }
    }
    console.log('\nEach dump read back gave the same bytes as the file loaded.');
  } finally {
    work.cleanup();
  }
}

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';
import { identityKey } from '../platform/identity-key.js';

// The page cache trusts this token to move on every change (platform/views/page-cache.ts).
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sqliteFile(): Promise<{ url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'groupnotes-token-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return { url: `sqlite:${join(dir, 'db.sqlite3')}` };
}

function open(url: string): DatabaseHandle {
  const handle = openDatabase(url);
  cleanups.push(() => handle.close());
  return handle;
}

async function addUser(handle: DatabaseHandle, username: string) {
  return handle.db.insertInto('users').values({ username, username_key: identityKey(username), email: '', password: 'x', date_joined: 0 }).returning('id').executeTakeFirstOrThrow();
}

describe('SQLite change token', () => {
  it('stays the same while the database is only read', async () => {
    const { url } = await sqliteFile();
    const handle = open(url);
    await migrateToLatest(handle.db);
    const before = handle.changeToken!();
    await handle.db.selectFrom('users').selectAll().execute();
    expect(handle.changeToken!()).toBe(before);
  });

  it('moves when this connection writes, foreign-key actions included', async () => {
    const { url } = await sqliteFile();
    const handle = open(url);
    await migrateToLatest(handle.db);
    const before = handle.changeToken!();
    const user = await addUser(handle, 'alice');
    const afterInsert = handle.changeToken!();
    expect(afterInsert).not.toBe(before);
    await handle.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(handle.changeToken!()).not.toBe(afterInsert);
  });

  it('moves when another connection (another worker or process) commits', async () => {
    const { url } = await sqliteFile();
    const handle = open(url);
    await migrateToLatest(handle.db);
    const other = open(url);
    const before = handle.changeToken!();
    await addUser(other, 'bob');
    expect(handle.changeToken!()).not.toBe(before);
  });

  it('never repeats across a checkpoint that restarts the write-ahead log', async () => {
    const { url } = await sqliteFile();
    const handle = open(url);
    await migrateToLatest(handle.db);
    const other = open(url);
    const seen = new Set([handle.changeToken!()]);
    for (let i = 0; i < 20; i++) {
      await addUser(i % 2 ? handle : other, `user${i}`);
      // A restart rewrites the log from its start: the frame count falls back, the salts change.
      if (i === 9) await sql`pragma wal_checkpoint(truncate)`.execute(other.db);
      seen.add(handle.changeToken!());
    }
    expect(seen.size).toBe(21);
  });

  it('moves with the writes of an in-memory database too', async () => {
    const handle = open('sqlite::memory:');
    await migrateToLatest(handle.db);
    const before = handle.changeToken!();
    await handle.db.selectFrom('users').selectAll().execute();
    expect(handle.changeToken!()).toBe(before);
    await addUser(handle, 'carol');
    expect(handle.changeToken!()).not.toBe(before);
  });

  it('moves when the database path is a symlink to the real file', async () => {
    const { url } = await sqliteFile();
    const real = url.slice('sqlite:'.length);
    mkdirSync(join(real, '..', 'link'));
    const link = join(real, '..', 'link', 'db.sqlite3');
    symlinkSync(real, link);
    const handle = open(`sqlite:${link}`);
    await migrateToLatest(handle.db);
    const other = open(url);
    await addUser(other, 'dave');
    const before = handle.changeToken!();
    await addUser(other, 'erin');
    expect(handle.changeToken!()).not.toBe(before);
  });

  it('moves when a stale -shm file lies beside a symlinked database path', async () => {
    const { url } = await sqliteFile();
    const real = url.slice('sqlite:'.length);
    const seed = open(url);
    await migrateToLatest(seed.db);
    mkdirSync(join(real, '..', 'link'));
    const link = join(real, '..', 'link', 'db.sqlite3');
    symlinkSync(real, link);
    // A copy of a wal-index nobody writes to any more, where the symlink's own -shm would be.
    copyFileSync(`${real}-shm`, `${link}-shm`);
    const handle = open(`sqlite:${link}`);
    const before = handle.changeToken!();
    await addUser(seed, 'frank');
    expect(handle.changeToken!()).not.toBe(before);
  });

  it('is not offered for PostgreSQL, where pages are always rendered', () => {
    const handle = openDatabase('postgres://postgres@127.0.0.1:5432/unused');
    cleanups.push(() => handle.close());
    expect(handle.changeToken).toBeNull();
  });
});

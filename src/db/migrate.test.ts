import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/index.js';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';

interface WorkerResult {
  applied: string[];
  error: string | null;
  startedAt: number;
  finishedAt: number;
}

/** A separate process, as a second app instance would be, with its own connection. */
function startWorker(url: string): { child: ChildProcessWithoutNullStreams; ready: Promise<void>; result: Promise<WorkerResult> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/migrate-worker.ts', url], { stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  let onReady: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const result = new Promise<WorkerResult>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') onReady();
      else if (line.startsWith('{')) resolve(JSON.parse(line) as WorkerResult);
    });
    child.on('exit', (code) => reject(new Error(`migration worker exited with ${code}: ${stderr}`)));
  });
  return { child, ready, result };
}

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.drop());

describe('two instances migrating one database at the same moment', () => {
  it('applies each migration exactly once: the second waits for the lock, then finds nothing to do', async () => {
    const workers = [startWorker(testDb.url), startWorker(testDb.url)];
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.child.stdin.write('go\n');
    const results = await Promise.all(workers.map((worker) => worker.result));

    expect(results.map((result) => result.error)).toEqual([null, null]);
    const expected = ['0000_probe', ...Object.keys(migrations)];
    expect(results.flatMap((result) => result.applied).sort()).toEqual(expected.sort());
    // They really ran together: one applied everything while the other was already waiting.
    const [first, second] = [...results].sort((a, b) => b.applied.length - a.applied.length) as [WorkerResult, WorkerResult];
    expect(first.applied).toEqual(['0000_probe', ...Object.keys(migrations)]);
    expect(second.applied).toEqual([]);
    expect(second.startedAt).toBeLessThan(first.finishedAt);

    const database = openDatabase(testDb.url, { poolSize: 1 });
    try {
      const probes = await sql<{ name: string; n: number }>`select name, count(*) as n from migration_probe group by name`.execute(database.db);
      expect(Object.fromEntries(probes.rows.map((row) => [row.name, Number(row.n)]))).toEqual(Object.fromEntries(expected.map((name) => [name, 1])));
      const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
      expect(recorded.rows.map((row) => row.name)).toEqual([...expected].sort());
    } finally {
      await database.close();
    }
  });
});

describe('a migration that fails', () => {
  it('leaves nothing half-done: the earlier steps of the same run are rolled back too', async () => {
    const scratch = await createTestDatabase();
    const database = openDatabase(scratch.url, { poolSize: 1 });
    try {
      const failing = {
        '0001_first': { up: async (db: Kysely<unknown>) => void (await sql`create table first_step (id integer)`.execute(db)) },
        '0002_broken': { up: async () => Promise.reject(new Error('broken on purpose')) },
      };
      await expect(migrateToLatest(database.db, failing)).rejects.toThrow('migration 0002_broken failed: broken on purpose');
      const tables = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(database.db);
      expect(Number(tables.rows[0]!.n)).toBe(0);
      await expect(sql`select * from first_step`.execute(database.db)).rejects.toThrow(/first_step/);
    } finally {
      await database.close();
      await scratch.drop();
    }
  });
});

import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { type DatabaseHandle, openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createTestDatabase } from './database.js';
import { testConfig } from './helpers.js';
import { listen } from './ws.js';

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

export interface Instance {
  app: FastifyInstance;
  database: DatabaseHandle;
  address: string;
}

/**
 * Two listening instances of the app on one database (a shared SQLite file, or PostgreSQL when
 * DATABASE_URL names it), talking through Redis on a channel prefix of this run only.
 */
export async function twoInstances(env: Record<string, string> = {}): Promise<{ one: Instance; two: Instance; prefix: string; close(): Promise<void> }> {
  const prefix = `groupnotes-test-${randomBytes(6).toString('hex')}:`;
  const testDb = await createTestDatabase();
  const migrating = openDatabase(testDb.url, { poolSize: 1 });
  await migrateToLatest(migrating.db);
  await migrating.close();
  const start = async (): Promise<Instance> => {
    const config = testConfig({ DATABASE_URL: testDb.url, REDIS_URL, REDIS_PREFIX: prefix, ...env });
    const database = openDatabase(config.databaseUrl, { poolSize: 4 });
    const app = await buildApp(config, { database });
    return { app, database, address: await listen(app) };
  };
  const instances = [await start(), await start()] as const;
  return {
    one: instances[0],
    two: instances[1],
    prefix,
    async close() {
      for (const instance of instances) {
        await instance.app.close();
        await instance.database.close();
      }
      await testDb.drop();
    },
  };
}

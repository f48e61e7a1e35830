import { type Kysely, type Migration, Migrator, type MigrationResult } from 'kysely';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

/**
 * Applies pending migrations. Kysely's migrator takes a lock (an advisory lock on PostgreSQL),
 * so two instances starting together apply each migration once.
 */
export async function migrateToLatest(db: Kysely<Database>, all: Record<string, Migration> = migrations): Promise<MigrationResult[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => all } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((result) => result.status === 'Error');
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`);
  }
  return results;
}

import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config.js';
import { type DatabaseHandle, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { publishFromOutside } from '../platform/hub/create.js';

// What every command is, and the plumbing commands share: the list of them is index.ts.

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CommandContext {
  config: Config;
  args: string[];
  options: Record<string, string | boolean | (string | boolean)[] | undefined>;
}

export interface Command {
  usage: string;
  summary: string;
  positionals: { min: number; max: number };
  options?: Options;
  run(context: CommandContext): Promise<void>;
}

/** Opens the database with every migration applied, runs `work`, and always closes it. */
export async function withDatabase<T>(config: Config, work: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const database = openDatabase(config.databaseUrl, { poolSize: 2 });
  try {
    await migrateToLatest(database.db);
    return await work(database);
  } finally {
    await database.close();
  }
}

/**
 * The running server closes the chat sockets of sessions ended here: told at once through Redis
 * when REDIS_URL is set, else at its next access check (every 30 s). A failure to tell it is a
 * warning: the sessions have ended anyway.
 */
export async function announceEndedSessions(config: Config, sessionKeys: string[]): Promise<void> {
  if (sessionKeys.length === 0) return;
  try {
    if (!(await publishFromOutside(config, { type: 'sessions.ended', sessionKeys }))) {
      console.log('without REDIS_URL, a running server closes their chat sockets within 30 s');
    }
  } catch (error) {
    console.error(`groupnotes: warning: could not tell running servers through Redis (${(error as Error).message}); they close the chat sockets within 30 s`);
  }
}

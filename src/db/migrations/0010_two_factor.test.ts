import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseForEachTest } from '../../../test/index.js';
import { migrateToLatest } from '../migrate.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

let db: Kysely<Database>;
freshDatabaseForEachTest((fresh) => {
  db = fresh;
});

async function addUser(username: string): Promise<number> {
  const row = await db.insertInto('users').values({ username, username_key: username, email: '', password: 'x', date_joined: 0 }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

describe('migration 0010 (two-factor sign-in)', () => {
  it('starts every existing user with 2FA off, and deleting a user deletes their recovery codes', async () => {
    const id = await addUser('ann');
    expect(await db.selectFrom('users').select(['totp_secret', 'totp_enabled', 'totp_last_step']).where('id', '=', id).executeTakeFirstOrThrow())
      .toEqual({ totp_secret: null, totp_enabled: 0, totp_last_step: null });
    await db.insertInto('recovery_codes').values({ user_id: id, code_hash: 'a'.repeat(64) }).execute();
    await db.deleteFrom('users').where('id', '=', id).execute();
    expect(await db.selectFrom('recovery_codes').selectAll().execute()).toEqual([]);
  });

  it('goes down, keeping the users, and up again', async () => {
    const id = await addUser('bob');
    await db.updateTable('users').set({ totp_secret: 'ABCD', totp_enabled: 1, totp_last_step: 5 }).where('id', '=', id).execute();
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const down = await migrator.migrateTo('0007_view_versions');
    expect(down.error).toBeUndefined();
    await expect(sql`select totp_secret from users`.execute(db)).rejects.toThrow(/totp_secret/);
    await expect(sql`select * from recovery_codes`.execute(db)).rejects.toThrow(/recovery_codes/);
    expect((await db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirstOrThrow()).username).toBe('bob');
    await migrateToLatest(db);
    expect((await db.selectFrom('users').select('totp_enabled').where('id', '=', id).executeTakeFirstOrThrow()).totp_enabled).toBe(0);
  });
});

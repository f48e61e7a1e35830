import { type Kysely, type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseForEachTest } from '../../../test/index.js';
import { migrateToLatest } from '../migrate.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

// An install where a two-factor secret waited on an account (shown to whoever opened the page)
// upgrades: that secret goes, an account's secret with 2FA on stays, and sessions get the column
// an enrolment is kept in.
const before0025 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0025'));

let db: Kysely<Database>;
freshDatabaseForEachTest((fresh) => {
  db = fresh;
}, before0025);

describe('0025_enrolment_secrets on an install with pending and confirmed secrets', () => {
  it('drops the secrets not confirmed, keeps the ones in use, and goes back down', async () => {
    await sql`insert into users (username, username_key, email, password, date_joined, totp_secret, totp_enabled) values
      ('pending', 'pending', '', 'x', 0, 'PENDINGSECRETPENDINGSECRETPENDIN', 0),
      ('enrolled', 'enrolled', '', 'x', 0, 'ENROLLEDSECRETENROLLEDSECRETENRO', 1)`.execute(db);
    await migrateToLatest(db);
    const users = await db.selectFrom('users').select(['username', 'totp_secret']).orderBy('username').execute();
    expect(users).toEqual([
      { username: 'enrolled', totp_secret: 'ENROLLEDSECRETENROLLEDSECRETENRO' },
      { username: 'pending', totp_secret: null },
    ]);
    expect(await db.selectFrom('sessions').select('totp_pending_secret').execute()).toEqual([]);

    await (migrations['0025_enrolment_secrets'] as Migration).down!(db);
    await expect(sql`select totp_pending_secret from sessions`.execute(db)).rejects.toThrow();
  });
});

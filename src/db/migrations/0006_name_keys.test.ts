import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseForEachTest } from '../../../test/index.js';
import { isUniqueViolation } from '../errors.js';
import { migrateToLatest } from '../migrate.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

// An install that ran 0001-0005 and holds rows, then upgrades.
const upTo0005 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0006'));

let db: Kysely<Database>;
freshDatabaseForEachTest((fresh) => {
  db = fresh;
}, upTo0005);

/** Rows written as the 0005 schema was: no key columns yet. */
async function oldUser(username: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into users (username, email, password, date_joined) values (${username}, '', 'x', 0) returning id`.execute(db);
  return rows[0]!.id;
}
async function oldGroup(name: string, ownerId: number): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into groups (name, owner_id, created_at) values (${name}, ${ownerId}, 0) returning id`.execute(db);
  return rows[0]!.id;
}
async function oldTag(name: string, ownerId: number): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into tags (name, owner_id, created_at) values (${name}, ${ownerId}, 0) returning id`.execute(db);
  return rows[0]!.id;
}

const applied = async () => (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((row) => row.name);

describe('0006_name_keys on an install with rows', () => {
  it('fills the key of every existing user, group and tag, and makes them unique (groups and tags per owner)', async () => {
    const emile = await oldUser('Émile');
    const bob = await oldUser('Bob');
    const family = await oldGroup('Family', emile);
    const summer = await oldTag('Été', emile);
    await migrateToLatest(db);

    expect(await db.selectFrom('users').select(['id', 'username_key']).orderBy('id').execute()).toEqual([
      { id: emile, username_key: 'émile' },
      { id: bob, username_key: 'bob' },
    ]);
    expect(await db.selectFrom('groups').select(['id', 'name_key']).execute()).toEqual([{ id: family, name_key: 'family' }]);
    expect(await db.selectFrom('tags').select(['id', 'name_key']).execute()).toEqual([{ id: summer, name_key: 'été' }]);

    const refused = async (insert: Promise<unknown>) => expect(isUniqueViolation(await insert.then(() => null, (error: unknown) => error))).toBe(true);
    await refused(db.insertInto('users').values({ username: 'ÉMILE', username_key: 'émile', email: '', password: 'x', date_joined: 0 }).execute());
    await refused(db.insertInto('groups').values({ name: 'FAMILY', name_key: 'family', owner_id: emile, created_at: 0 }).execute());
    await refused(db.insertInto('tags').values({ name: 'ÉTÉ', name_key: 'été', owner_id: emile, created_at: 0 }).execute());
    // Another owner may use the same names: the site-wide uniqueness of group names is gone.
    await db.insertInto('groups').values({ name: 'Family', name_key: 'family', owner_id: bob, created_at: 0 }).execute();
    await db.insertInto('tags').values({ name: 'Été', name_key: 'été', owner_id: bob, created_at: 0 }).execute();
    // A row written without its key (by raw SQL) would be unreachable by name: refused.
    await expect(sql`insert into users (username, email, password, date_joined) values ('Zoé', '', 'x', 0)`.execute(db)).rejects.toThrow(/username_key/);
    await expect(sql`insert into tags (name, owner_id, created_at) values ('x', ${bob}, 0)`.execute(db)).rejects.toThrow(/name_key/);
  });

  it('refuses to run while names collide, naming every row, changes nothing, and runs once they are renamed', async () => {
    const emile = await oldUser('emile');
    const wide = await oldUser('Ｅｍｉｌｅ');
    const street = await oldUser('Straße');
    const shout = await oldUser('STRASSE');
    const family = await oldGroup('family', emile);
    const wideFamily = await oldGroup('ＦＡＭＩＬＹ', emile);
    // Another owner's: no collision. (Mixed widths, so that no old lower() index refuses it.)
    await oldGroup('Ｆamily', street);
    const trip = await oldTag('trip', wide);
    const wideTrip = await oldTag('Ｔｒｉｐ', wide);
    const blank = await oldUser('\u3164');
    const ligatures = await oldTag('\ufdfa'.repeat(40), wide);

    const failure = await migrateToLatest(db).then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain('migration 0006_name_keys failed: 6 problem(s) with names that must be unique');
    expect(message).toContain(`users: "emile" (id ${emile}), "Ｅｍｉｌｅ" (id ${wide})`);
    expect(message).toContain(`users: "Straße" (id ${street}), "STRASSE" (id ${shout})`);
    expect(message).toContain(`groups of owner ${emile}: "family" (id ${family}), "ＦＡＭＩＬＹ" (id ${wideFamily})`);
    expect(message).toContain(`tags of owner ${wide}: "trip" (id ${trip}), "Ｔｒｉｐ" (id ${wideTrip})`);
    expect(message).toContain(`users: "\u3164" (id ${blank}) shows no letter`);
    expect(message).toContain(`tags of owner ${wide}: "${'\ufdfa'.repeat(40)}" (id ${ligatures}) is too long once folded`);
    expect(message).toContain('Nothing was changed: rename all but one of each set');
    expect(await applied()).toEqual(Object.keys(upTo0005));
    const columns = await sql`select username_key from users`.execute(db).then(() => 'present', () => 'absent');
    expect(columns).toBe('absent');

    await sql`update users set username = 'emile2' where id = ${wide}`.execute(db);
    await sql`update users set username = 'strasse2' where id = ${shout}`.execute(db);
    await sql`update groups set name = 'family 2' where id = ${wideFamily}`.execute(db);
    await sql`update tags set name = 'trip 2' where id = ${wideTrip}`.execute(db);
    await sql`update users set username = 'filler' where id = ${blank}`.execute(db);
    await sql`update tags set name = 'salawat' where id = ${ligatures}`.execute(db);
    await migrateToLatest(db);
    expect(await applied()).toEqual(Object.keys(migrations));
    expect((await db.selectFrom('users').select('username_key').where('id', '=', street).executeTakeFirstOrThrow()).username_key).toBe('strasse');
  });

  it('goes down again to the 0005 schema, lower() indexes and all', async () => {
    const emile = await oldUser('Émile');
    await migrateToLatest(db);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateTo('0005_chat');
    expect(error).toBeUndefined();
    expect(await applied()).toEqual(Object.keys(upTo0005));
    await expect(sql`select username_key from users`.execute(db)).rejects.toThrow(/username_key/);
    await oldGroup('Hikers', emile);
    await expect(oldGroup('hikers', emile)).rejects.toThrow();
  });
});

// An install whose users already have look-alike names upgrades: nothing stops, they are named, and they still sign in.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, DEFAULT_PASSWORD, TEST_ITERATIONS, testConfig, TestBrowser, type TestDatabase } from '../../../test/index.js';
import { buildApp } from '../../app.js';
import { UsersRepository } from '../../features/accounts/repository.js';
import { identityKey } from '../../platform/identity-key.js';
import { hashPassword } from '../../platform/passwords/passwords.js';
import { type DatabaseHandle, openDatabase } from '../database.js';
import { isUniqueViolation } from '../errors.js';
import { migrateToLatest } from '../migrate.js';
import { migrations } from './index.js';

// An install that ran every migration before 0026 and holds users, then upgrades.
const before0026 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0026'));

let scratch: TestDatabase;
let database: DatabaseHandle;
beforeEach(async () => {
  scratch = await createTestDatabase();
  database = openDatabase(scratch.url, { poolSize: 2 });
  await migrateToLatest(database.db, before0026);
});
afterEach(async () => {
  await database.close();
  await scratch.drop();
});

/** A user as the 0025 schema wrote them: a key, no skeleton. */
async function oldUser(username: string): Promise<number> {
  const password = await hashPassword(DEFAULT_PASSWORD, TEST_ITERATIONS);
  const { rows } = await sql<{ id: number }>`insert into users (username, username_key, email, password, date_joined)
    values (${username}, ${identityKey(username)}, '', ${password}, 0) returning id`.execute(database.db);
  return Number(rows[0]!.id);
}

/** Migrates to the latest, returning what it warned. */
async function migrateWarning(): Promise<string[]> {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    await migrateToLatest(database.db);
    return warn.mock.calls.map((call) => call.map(String).join(' '));
  } finally {
    warn.mockRestore();
  }
}

describe('0026_username_skeletons on an install with look-alike usernames', () => {
  it('runs, keeps later look-alikes without a skeleton, names them, and every user still signs in', async () => {
    const alice = await oldUser('alice');
    const cyrillicAlice = await oldUser('\u0430lice');
    const ace = await oldUser('ace');
    const cyrillicAce = await oldUser('\u0430\u0441\u0435');
    const olena = await oldUser('олена');

    const warnings = await migrateWarning();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('2 user(s) kept without a skeleton');
    expect(warnings[0]).toContain(`"\u0430lice" (id ${cyrillicAlice}) looks like "alice" (id ${alice})`);
    expect(warnings[0]).toContain(`"\u0430\u0441\u0435" (id ${cyrillicAce}) looks like "ace" (id ${ace})`);
    expect(await database.db.selectFrom('users').select(['id', 'username_skeleton']).orderBy('id').execute()).toEqual([
      { id: alice, username_skeleton: 'alice' },
      { id: cyrillicAlice, username_skeleton: null },
      { id: ace, username_skeleton: 'ace' },
      { id: cyrillicAce, username_skeleton: null },
      { id: olena, username_skeleton: expect.any(String) },
    ]);

    // The index refuses a new row that looks like a kept one, whatever writes it.
    const inserted = await new UsersRepository(database.db).insert({ username: 'aIice', email: '', password: 'x' }).then(() => null, (error: unknown) => error);
    expect(isUniqueViolation(inserted)).toBe(true);

    const app = await buildApp(testConfig({ DATABASE_URL: scratch.url }), { database });
    await app.ready();
    try {
      for (const username of ['alice', '\u0430lice', 'ace', '\u0430\u0441\u0435', 'олена']) {
        const response = await new TestBrowser(app).post('/accounts/login/', { username, password: DEFAULT_PASSWORD });
        expect(response.statusCode, username).toBe(302);
        expect(response.headers.location).toBe('/notes/');
      }
      const register = (username: string) => new TestBrowser(app).post('/register/', { username, password1: 'maple-syrup-river', password2: 'maple-syrup-river' });
      const lookalike = await register('aIice');
      expect(lookalike.statusCode).toBe(400);
      expect(lookalike.body).toContain('A user with a username that looks the same already exists.');
      // With Latin ace gone, Cyrillic асе, kept without a skeleton, still holds the look.
      await database.db.deleteFrom('users').where('id', '=', ace).execute();
      expect((await register('ace')).statusCode).toBe(400);
      expect(await database.db.selectFrom('users').select('username').where('username', 'in', ['aIice', 'ace']).execute()).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('warns nothing when no names look alike', async () => {
    await oldUser('alice');
    await oldUser('олена');
    expect(await migrateWarning()).toEqual([]);
  });
});

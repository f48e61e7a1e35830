// import-django leaves out users whose names mix alphabets or look like a lower pk's, and stores the skeletons of those kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dumpFiles, type TestApp, TestBrowser } from '../../../test/index.js';
import { formatReport, importDjango } from './import.js';

const dumpFile = dumpFiles();

describe('import-django of look-alike usernames', () => {
  let t: TestApp;
  let report: string;
  const user = (pk: number, username: string) => ({
    model: 'auth.user',
    pk,
    fields: { username, password: 'pbkdf2_sha256$1000$salt$AAAA', email: '', date_joined: '2024-01-01T00:00:00Z', groups: [] },
  });

  beforeAll(async () => {
    t = await buildTestApp();
    const entries = [user(1, 'ace'), user(2, '\u0430\u0441\u0435'), user(3, '\u0430lice'), user(4, 'олена')];
    const { dump, plan } = await importDjango(t.db, t.database.dialect, dumpFile(entries));
    report = formatReport(dump, plan);
  });
  afterAll(() => t.close());

  it('keeps the lower pk of two look-alikes and no name that mixes alphabets, saying why', async () => {
    expect(await t.db.selectFrom('users').select(['id', 'username', 'username_skeleton']).orderBy('id').execute()).toEqual([
      { id: 1, username: 'ace', username_skeleton: 'ace' },
      { id: 4, username: 'олена', username_skeleton: expect.any(String) },
    ]);
    expect(report).toContain('auth.user pk 2 "\u0430\u0441\u0435": a username that looks like "ace" (pk 1); the lower pk is kept');
    expect(report).toContain('auth.user pk 3 "\u0430lice": not a valid username here');
  });

  it('refuses a new registration that looks like an imported user', async () => {
    const response = await new TestBrowser(t.app).post('/register/', { username: '\u0430\u0441\u0435', password1: 'maple-syrup-river', password2: 'maple-syrup-river' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('A user with a username that looks the same already exists.');
  });
});

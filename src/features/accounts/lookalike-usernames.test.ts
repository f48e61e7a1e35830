// Usernames that look like another user's (mixed alphabets, or letters that pass for others) are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, TestBrowser } from '../../../test/index.js';
import { SessionStore } from '../../platform/chain/session.js';
import { AccountsService } from './service.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const GOOD = 'maple-syrup-river';
const MIXED = 'Use the letters of one alphabet';
const LOOKALIKE = 'A user with a username that looks the same already exists.';

const register = (username: string) => new TestBrowser(t.app).post('/register/', { username, password1: GOOD, password2: GOOD });
const stored = (...names: string[]) => t.db.selectFrom('users').select('username').where('username', 'in', names).execute();

async function refused(username: string, message: string): Promise<void> {
  const response = await register(username);
  expect(response.statusCode, username).toBe(400);
  expect(response.body, username).toContain(message);
}

describe('a username that looks like another', () => {
  it('refuses alice spelt with a Cyrillic а, on its own and beside alice, and one with a Greek Α', async () => {
    const cyrillic = '\u0430lice';
    await refused(cyrillic, MIXED);
    expect((await register('alice')).statusCode).toBe(302);
    await refused(cyrillic, MIXED);
    await refused('\u0391lice', MIXED);
    await refused('ALIC\u0415', MIXED);
    expect(await stored(cyrillic, '\u0391lice', 'ALIC\u0415')).toEqual([]);
  });

  it('accepts a name in Cyrillic letters alone, with digits and signs, which then signs in', async () => {
    for (const name of ['олена_1990', 'Ярина.К', 'tanaka田中さん']) {
      expect((await register(name)).statusCode, name).toBe(302);
      const browser = new TestBrowser(t.app);
      expect((await browser.post('/accounts/login/', { username: name, password: GOOD })).statusCode, name).toBe(302);
      expect((await browser.get('/notes/')).body).toContain(name);
    }
  });

  it('refuses a name in one alphabet whose letters pass for an existing user’s, whichever came first', async () => {
    expect((await register('ace')).statusCode).toBe(302);
    await refused('\u0430\u0441\u0435', LOOKALIKE); // асе, all Cyrillic
    expect((await register('\u0441\u043e\u0440')).statusCode).toBe(302); // сор, all Cyrillic
    await refused('cop', LOOKALIKE);
    await refused('COP', LOOKALIKE);
    expect((await register('Ivan')).statusCode).toBe(302);
    await refused('lvan', LOOKALIKE);
    expect((await register('BOB')).statusCode).toBe(302);
    await refused('B0B', LOOKALIKE);
    expect(await stored('\u0430\u0441\u0435', 'cop', 'COP', 'lvan', 'B0B')).toEqual([]);
  });

  it('keeps one account of two look-alike names registered at once', async () => {
    const responses = await Promise.all([register('coco'), register('\u0441\u043e\u0441\u043e')]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([302, 400]);
    expect(responses.find((response) => response.statusCode === 400)!.body).toContain(LOOKALIKE);
    expect(await stored('coco', '\u0441\u043e\u0441\u043e')).toHaveLength(1);
  });

  it('refuses both kinds at the door the command line uses too', async () => {
    const accounts = new AccountsService(t.db, t.config, new SessionStore(t.db, t.config.sessionCookieAge));
    expect((await accounts.createUser({ username: 'mode', email: '', password: GOOD })).ok).toBe(true);
    expect(await accounts.createUser({ username: 'rnode', email: '', password: GOOD })).toEqual({ ok: false, errors: { username: ['form.username_lookalike'] } });
    expect(await accounts.createUser({ username: 'm\u043ede', email: '', password: GOOD })).toEqual({ ok: false, errors: { username: ['form.username_mixed_scripts'] } });
    expect(await stored('rnode', 'm\u043ede')).toEqual([]);
  });
});

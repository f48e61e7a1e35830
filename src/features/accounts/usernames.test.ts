import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, TestBrowser } from '../../../test/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const GOOD = 'maple-syrup-river';

const usersNamed = (...names: string[]) => t.db.selectFrom('users').select(['id', 'username']).where('username', 'in', names).execute();

async function register(username: string) {
  return new TestBrowser(t.app).post('/register/', { username, password1: GOOD, password2: GOOD });
}

describe('a username with capitals outside A-Z', () => {
  it('lets Émile log back in after logging out, typed as Émile, ÉMILE, émile, decomposed or in fullwidth letters', async () => {
    const browser = new TestBrowser(t.app);
    expect((await browser.post('/register/', { username: 'Émile', password1: GOOD, password2: GOOD })).statusCode).toBe(302);
    expect((await browser.post('/accounts/logout/')).statusCode).toBe(302);
    for (const typed of ['Émile', 'ÉMILE', 'émile', 'E\u0301mile', 'Ｅ\u0301ｍｉｌｅ']) {
      const again = new TestBrowser(t.app);
      const response = await again.post('/accounts/login/', { username: typed, password: GOOD });
      expect(response.statusCode, typed).toBe(302);
      expect(response.headers.location).toBe('/notes/');
      expect((await again.get('/notes/')).body).toContain('Émile');
    }
  });

  it('cannot be registered a second time in another case, width or spelling of ß, and stores nothing', async () => {
    expect((await register('Straße')).statusCode).toBe(302);
    for (const lookalike of ['straße', 'STRASSE', 'strasse', 'Ｓｔｒａｓｓｅ']) {
      const response = await register(lookalike);
      expect(response.statusCode, lookalike).toBe(400);
      expect(response.body).toContain('A user with that username already exists.');
    }
    expect(await usersNamed('straße', 'STRASSE', 'strasse', 'Ｓｔｒａｓｓｅ')).toEqual([]);
  });

  it('refuses a name of invisible letters only, or a known name with an invisible letter added', async () => {
    expect((await register('Zoé')).statusCode).toBe(302);
    const blank = await register('\u3164');
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain('Enter a valid username');
    const padded = await register('Zoé\u3164');
    expect(padded.statusCode).toBe(400);
    expect(padded.body).toContain('A user with that username already exists.');
    expect(await usersNamed('\u3164', 'Zoé\u3164')).toEqual([]);
  });

  it('answers a login with a name that folds to thousands of letters with the form, not a 500', async () => {
    const response = await new TestBrowser(t.app).post('/accounts/login/', { username: '\ufdfa'.repeat(150), password: GOOD });
    expect(response.statusCode).toBe(400);
    const registration = await register('\ufdfa'.repeat(40));
    expect(registration.statusCode).toBe(400);
    expect(registration.body).toContain('That username is too long.');
  });

  it('counts wrong passwords typed in any spelling of Émile against the one username', async () => {
    expect((await register('Émilie')).statusCode).toBe(302);
    const browser = new TestBrowser(t.app);
    const csrf = await browser.ensureCsrfCookie();
    // Each attempt from its own address, so that only the per-username limit can answer 429.
    const attempt = (username: string, password: string, n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/accounts/login/',
        remoteAddress: `198.51.100.${n}`,
        headers: { host: 'localhost', origin: 'http://localhost', cookie: `csrftoken=${csrf}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ csrfmiddlewaretoken: csrf, username, password }).toString(),
      });
    const spellings = ['Émilie', 'ÉMILIE', 'E\u0301milie', 'Ｅ\u0301ｍｉｌｉｅ', 'émilie\u200b'];
    for (const [n, spelling] of spellings.entries()) expect((await attempt(spelling, 'wrong-password', n + 1)).statusCode, spelling).toBe(400);
    expect((await attempt('émilie', GOOD, 10)).statusCode).toBe(429);
  });
});


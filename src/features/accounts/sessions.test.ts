import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionKeyId } from '../../platform/chain/session.js';
import { buildTestApp, createUser, DEFAULT_PASSWORD, type TestApp, TestBrowser } from '../../../test/index.js';

// "My sessions": each session is shown with its browser and address, and can be ended on its
// own, named by its key id (a hash: the key itself is a credential and never leaves its cookie).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** A user signed in from two browsers. */
async function twoBrowsers() {
  const user = await createUser(t.db);
  const here = new TestBrowser(t.app);
  const there = new TestBrowser(t.app);
  await here.login(user.username);
  await there.login(user.username);
  return { user, here, there, hereKey: here.cookies.get('sessionid')!, thereKey: there.cookies.get('sessionid')! };
}

const sessionExists = async (key: string) => (await t.db.selectFrom('sessions').select('session_key').where('session_key', '=', key).executeTakeFirst()) !== undefined;

describe('my sessions', () => {
  it('shows each session’s browser and address with a button to end it, and never a session key', async () => {
    const { here, hereKey, thereKey } = await twoBrowsers();
    const page = (await here.get('/accounts/sessions/')).body;
    expect(page).toContain('127.0.0.1');
    expect(page).toContain(`action="/accounts/sessions/${sessionKeyId(thereKey)}/delete/"`);
    expect(page).toContain(`action="/accounts/sessions/${sessionKeyId(hereKey)}/delete/"`);
    expect(page).not.toContain(hereKey);
    expect(page).not.toContain(thereKey);
  });

  it('names the browser and system of each session ("Chrome on Linux") and says how long ago, the raw string as its title', async () => {
    const user = await createUser(t.db);
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
    const browser = new TestBrowser(t.app);
    const login = await browser.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, { headers: { 'user-agent': chrome } });
    expect(login.statusCode).toBe(302);
    const page = (await browser.get('/accounts/sessions/')).body;
    expect(page).toContain(`<span title="${chrome}">Chrome on Linux</span>`);
    expect(page).toMatch(/<time datetime="[^"]+" data-relative title="[^"]+">just now<\/time>/);
  });

  it('ends one other session of the caller: that browser is logged out, this one stays', async () => {
    const { here, there, thereKey } = await twoBrowsers();
    const response = await here.post(`/accounts/sessions/${sessionKeyId(thereKey)}/delete/`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/sessions/');
    expect(await sessionExists(thereKey)).toBe(false);
    expect((await there.get('/accounts/sessions/')).statusCode).toBe(302);
    const after = await here.get('/accounts/sessions/');
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('That session was ended.');
  });

  it('ending the caller’s own session logs them out', async () => {
    const { here, hereKey, thereKey } = await twoBrowsers();
    const response = await here.post(`/accounts/sessions/${sessionKeyId(hereKey)}/delete/`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/login/');
    expect(await sessionExists(hereKey)).toBe(false);
    expect(await sessionExists(thereKey)).toBe(true);
    expect((await here.get('/accounts/sessions/')).statusCode).toBe(302);
  });

  it('answers another user’s session id, an unknown id and a malformed one with 404, ending nothing', async () => {
    const { here } = await twoBrowsers();
    const stranger = await twoBrowsers();
    for (const keyId of [sessionKeyId(stranger.hereKey), sessionKeyId('x'.repeat(32)), 'not-an-id', stranger.hereKey]) {
      expect((await here.post(`/accounts/sessions/${keyId}/delete/`)).statusCode).toBe(404);
    }
    expect(await sessionExists(stranger.hereKey)).toBe(true);
    expect((await stranger.here.get('/accounts/sessions/')).statusCode).toBe(200);
  });

  it('refuses the anonymous (to the login page) and a form without its CSRF token (403), ending nothing', async () => {
    const { thereKey } = await twoBrowsers();
    const anonymous = await new TestBrowser(t.app).post(`/accounts/sessions/${sessionKeyId(thereKey)}/delete/`);
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toMatch(/^\/accounts\/login\//);
    const own = await twoBrowsers();
    expect((await own.here.post(`/accounts/sessions/${sessionKeyId(own.thereKey)}/delete/`, {}, { csrf: false })).statusCode).toBe(403);
    expect(await sessionExists(thereKey)).toBe(true);
    expect(await sessionExists(own.thereKey)).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, buildTestApp, createToken, createUser, DEFAULT_PASSWORD, loggedIn, shownSecret, type TestApp, type TestBrowser, totpCode } from '../../../test/index.js';
import { SessionStore } from '../../platform/chain/session.js';
import { encodeUid, makeResetToken } from './reset-tokens.js';
import { AccountsService } from './service.js';

// What ends a user's API tokens: a password reset (by link or by an administrator) always does;
// a password change and turning two-factor sign-in on do when "also revoke my API tokens" is
// ticked (the forms show it ticked); the sessions page revokes them all on request.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const NEW_PASSWORD = 'lighthouse-keeper-42';

/** The statuses `/api/v1/me/` answers each token with. */
const statuses = async (tokens: string[]) => Promise.all(tokens.map(async (token) => (await new ApiClient(t.app, { token }).get('/api/v1/me/')).statusCode));
const tokenCount = async (userId: number) => (await t.db.selectFrom('access_tokens').select('id').where('user_id', '=', userId).execute()).length;

/** A signed-in user with two working tokens (a write and a read one), and a bystander with one. */
async function userWithTokens() {
  const { user, browser } = await loggedIn(t);
  const tokens = [await createToken(t.db, user, 'write'), await createToken(t.db, user, 'read')];
  const bystander = await createUser(t.db);
  const theirs = await createToken(t.db, bystander, 'write');
  expect(await statuses([...tokens, theirs])).toEqual([200, 200, 200]);
  return { user, browser, tokens, theirs };
}

const changePassword = (browser: TestBrowser, extra: Record<string, string> = {}) =>
  browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD, ...extra });

/** Turns 2FA on from the page, as a person would (the current password is sent too, for forms that ask for it). */
async function turnOnTwoFactor(browser: TestBrowser, extra: Record<string, string> = {}) {
  const secret = shownSecret((await browser.get('/accounts/2fa/')).body);
  return browser.post('/accounts/2fa/', { code: totpCode(secret), password: DEFAULT_PASSWORD, ...extra });
}

describe('a password reset', () => {
  it('by the mailed link revokes every API token of the user (401 from then on), and no one else’s', async () => {
    const { user, tokens, theirs } = await userWithTokens();
    const stored = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    const link = `/accounts/reset/${encodeUid(user.id)}/${makeResetToken(t.config.secretKey, stored)}/`;
    const set = await (await loggedIn(t)).browser.post(link, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    expect(set.statusCode).toBe(302);
    expect(set.headers.location).toBe('/accounts/reset/done/');
    expect(await statuses([...tokens, theirs])).toEqual([401, 401, 200]);
    expect(await tokenCount(user.id)).toBe(0);
  });

  it('by an administrator (the command line’s changepassword) revokes every API token of the user', async () => {
    const { user, tokens, theirs } = await userWithTokens();
    const accounts = new AccountsService(t.db, t.config, new SessionStore(t.db, t.config.sessionCookieAge));
    const stored = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect((await accounts.setNewPassword(stored, NEW_PASSWORD)).ok).toBe(true);
    expect(await statuses([...tokens, theirs])).toEqual([401, 401, 200]);
  });
});

describe('a password change', () => {
  it('offers "also revoke my API tokens", ticked', async () => {
    const { browser } = await loggedIn(t);
    const page = (await browser.get('/accounts/password_change/')).body;
    expect(page).toMatch(/<input type="checkbox" id="id_revoke_tokens" name="revoke_tokens" value="on" checked\/?>/);
    expect(page).toContain('Also revoke my API tokens');
  });

  it('with the box ticked revokes every API token of the user, and no one else’s', async () => {
    const { user, browser, tokens, theirs } = await userWithTokens();
    expect((await changePassword(browser, { revoke_tokens: 'on' })).statusCode).toBe(302);
    expect(await statuses([...tokens, theirs])).toEqual([401, 401, 200]);
    expect(await tokenCount(user.id)).toBe(0);
  });

  it('with the box unticked (absent from the form, as a browser sends it, or an older form without it) keeps them', async () => {
    const { user, browser, tokens } = await userWithTokens();
    expect((await changePassword(browser)).statusCode).toBe(302);
    expect(await statuses(tokens)).toEqual([200, 200]);
    expect(await tokenCount(user.id)).toBe(2);
  });

  it('shown again with errors, keeps the box as it was sent', async () => {
    const { browser } = await loggedIn(t);
    const unticked = (await changePassword(browser, { new_password2: 'something-else-7' })).body;
    expect(unticked).toMatch(/<input type="checkbox" id="id_revoke_tokens" name="revoke_tokens" value="on"\/?>/);
    const ticked = (await changePassword(browser, { new_password2: 'something-else-7', revoke_tokens: 'on' })).body;
    expect(ticked).toMatch(/<input type="checkbox" id="id_revoke_tokens" name="revoke_tokens" value="on" checked\/?>/);
  });

  it('refused (a wrong current password) revokes nothing, even with the box ticked', async () => {
    const { browser, tokens } = await userWithTokens();
    expect((await changePassword(browser, { old_password: 'not-my-password', revoke_tokens: 'on' })).statusCode).toBe(400);
    expect(await statuses(tokens)).toEqual([200, 200]);
  });
});

describe('turning two-factor sign-in on', () => {
  it('offers "also revoke my API tokens", ticked', async () => {
    const { browser } = await loggedIn(t);
    const page = (await browser.get('/accounts/2fa/')).body;
    expect(page).toMatch(/<input type="checkbox" id="id_revoke_tokens" name="revoke_tokens" value="on" checked\/?>/);
  });

  it('with the box ticked revokes every API token of the user', async () => {
    const { browser, tokens, theirs } = await userWithTokens();
    expect((await turnOnTwoFactor(browser, { revoke_tokens: 'on' })).statusCode).toBe(200);
    expect(await statuses([...tokens, theirs])).toEqual([401, 401, 200]);
  });

  it('with the box unticked keeps them; a wrong code revokes nothing', async () => {
    const { browser, tokens } = await userWithTokens();
    expect((await browser.post('/accounts/2fa/', { code: '000000', password: DEFAULT_PASSWORD, revoke_tokens: 'on' })).statusCode).toBe(400);
    expect(await statuses(tokens)).toEqual([200, 200]);
    expect((await turnOnTwoFactor(browser)).statusCode).toBe(200);
    expect(await statuses(tokens)).toEqual([200, 200]);
  });
});

describe('"revoke all tokens" on the sessions page', () => {
  it('stands beside "log out everywhere else" as a form with its CSRF token', async () => {
    const { browser } = await loggedIn(t);
    const page = (await browser.get('/accounts/sessions/')).body;
    expect(page).toMatch(/<form method="post" action="\/accounts\/sessions\/revoke-tokens\/"[^>]*><input type="hidden" name="csrfmiddlewaretoken" value="[^"]+"\/?>/);
    expect(page).toContain('Revoke all API tokens');
  });

  it('revokes every API token of the caller and says how many; no one else’s, and the sessions stay', async () => {
    const { user, browser, tokens, theirs } = await userWithTokens();
    const response = await browser.post('/accounts/sessions/revoke-tokens/');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/sessions/');
    expect(await statuses([...tokens, theirs])).toEqual([401, 401, 200]);
    expect(await tokenCount(user.id)).toBe(0);
    const after = await browser.get('/accounts/sessions/');
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('2 API tokens were revoked.');
    expect((await browser.post('/accounts/sessions/revoke-tokens/')).statusCode).toBe(302);
    expect((await browser.get('/accounts/sessions/')).body).toContain('You had no API tokens to revoke.');
  });

  it('says how many in Ukrainian with its plural forms', async () => {
    const { user, browser } = await loggedIn(t);
    await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', user.id).execute();
    for (const [count, said] of [[2, 'Відкликано 2 токени API.'], [5, 'Відкликано 5 токенів API.'], [1, 'Відкликано 1 токен API.']] as const) {
      for (let i = 0; i < count; i++) await createToken(t.db, user);
      await browser.post('/accounts/sessions/revoke-tokens/');
      expect((await browser.get('/accounts/sessions/')).body).toContain(said);
    }
  });

  it('needs the CSRF token (403) and a login, revoking nothing', async () => {
    const { browser, tokens } = await userWithTokens();
    expect((await browser.post('/accounts/sessions/revoke-tokens/', {}, { csrf: false })).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'POST', url: '/accounts/sessions/revoke-tokens/', headers: { host: 'localhost' } });
    expect(anonymous.statusCode).toBe(403);
    expect(await statuses(tokens)).toEqual([200, 200]);
  });
});

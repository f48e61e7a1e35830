import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENCIES } from './currencies.js';
import { LANGUAGES } from '../../platform/i18n/index.js';
import { timeZoneChoices } from '../../platform/time-zones.js';
import { buildTestApp, createUser, DEFAULT_PASSWORD, expectAllWrapped, loggedIn, type TestApp, TestBrowser, totpCode, useMarkedMessages } from '../../../test/index.js';
import { ownName } from './account-views.js';
import { encodeUid, makeResetToken } from './reset-tokens.js';

// Every page of accounts, rendered with every catalogue message wrapped in
// ⟦ ⟧, no readable text may be left outside them. What is not the interface's own words is named:
// usernames, and what the pages show as data (time zone names, currencies and languages named by
// Intl, a token, a secret, recovery codes, an HTTP header's name in the token's usage).

let t: TestApp;
beforeAll(async () => {
  useMarkedMessages();
  t = await buildTestApp();
});
afterAll(() => t.close());

const currencyNames = new Intl.DisplayNames('en', { type: 'currency' });
const DATA = [
  ...timeZoneChoices(undefined),
  ...CURRENCIES.map((code) => `${code} – ${currencyNames.of(code) ?? code}`),
  ...LANGUAGES.map(ownName),
  'Authorization: Bearer gnp_',
];
/** Dates and times from Intl, in the page's language (a session's title): data, not words. */
const datesOf = (html: string) => [...html.matchAll(/<time [^>]*title="([^"]+)"/g)].map((match) => match[1]!);

function expectWrapped(path: string, html: string, ...userContent: string[]): void {
  expectAllWrapped(path, html, [...DATA, ...datesOf(html), ...userContent]);
}

/** A page's flash messages alone: for a page of another area that shows this area's flash. */
function messagesOf(html: string): string {
  const section = /<section class="messages"[\s\S]*?<\/section>/.exec(html);
  expect(section).not.toBeNull();
  return section![0];
}

describe('every accounts page speaks only from the catalogue', () => {
  it('login, its errors, the wrong-password countdown and the logout flash', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app, 'localhost', '10.1.0.1');
    expectWrapped('/accounts/login/', (await browser.get('/accounts/login/')).body);
    expectWrapped('login, empty', (await browser.post('/accounts/login/', {})).body);
    // Wrong passwords to the pause: the countdown, the pause, then the refusal with its wait.
    for (let i = 0; i < 6; i++) {
      const wrong = await browser.post('/accounts/login/', { username: user.username, password: 'not-it' });
      expect(wrong.statusCode).toBe(i < 5 ? 400 : 429);
      expectWrapped(`login, wrong password ${i + 1}`, wrong.body, user.username);
    }
    await t.db.deleteFrom('login_failures').execute();
    await browser.login(user.username);
    await browser.post('/accounts/logout/');
    const after = (await browser.get('/accounts/login/')).body;
    expect(after).toContain('class="messages"');
    expectWrapped('login after logout', after);
  });

  it('register, its errors, and the welcome', async () => {
    const browser = new TestBrowser(t.app, 'localhost', '10.1.0.2');
    expectWrapped('/register/', (await browser.get('/register/')).body);
    const weak = await browser.post('/register/', { username: 'bad name!', email: 'nope', password1: '1234', password2: '12345' });
    expect(weak.statusCode).toBe(400);
    expectWrapped('register, errors', weak.body, 'bad name!', 'nope');
    const taken = await createUser(t.db);
    const again = await browser.post('/register/', { username: taken.username, password1: 'violet-harbour-71', password2: 'violet-harbour-71' });
    expectWrapped('register, taken', again.body, taken.username);
    const welcomed = await browser.post('/register/', { username: 'wrapped_newcomer', password1: 'violet-harbour-71', password2: 'violet-harbour-71' });
    expect(welcomed.statusCode).toBe(302);
    expectWrapped('welcome flash', messagesOf((await browser.get(welcomed.headers.location!)).body), 'wrapped_newcomer');
  });

  it('password change, its errors, and the page after it', async () => {
    const { user, browser } = await loggedIn(t);
    expectWrapped('/accounts/password_change/', (await browser.get('/accounts/password_change/')).body, user.username);
    const wrong = await browser.post('/accounts/password_change/', { old_password: 'not-it', new_password1: 'violet-harbour-71', new_password2: 'violet-harbour-71' });
    expectWrapped('password change, wrong password', wrong.body, user.username);
    const weak = await browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: '1234', new_password2: '123' });
    expectWrapped('password change, errors', weak.body, user.username);
    const changed = await browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: 'violet-harbour-71', new_password2: 'violet-harbour-71' });
    expect(changed.statusCode).toBe(302);
    const done = (await browser.get('/accounts/password_change/done/')).body;
    expect(done).toContain('class="messages"');
    expectWrapped('password change done', done, user.username);
  });

  it('the sessions page, and the flashes of ending sessions', async () => {
    const { user, browser } = await loggedIn(t);
    for (let i = 0; i < 2; i++) await new TestBrowser(t.app).login(user.username);
    // The raw User-Agent, as the browser cell's title: data. (Its name, unknown here, is the catalogue's.)
    const page = (await browser.get('/accounts/sessions/')).body;
    expect(page).toContain('title="lightMyRequest"');
    expectWrapped('/accounts/sessions/', page.replaceAll('title="lightMyRequest"', ''), user.username);
    const keyId = /\/accounts\/sessions\/([0-9a-f]{24})\/delete\//.exec((await browser.get('/accounts/sessions/')).body)![1]!;
    await browser.post(`/accounts/sessions/${keyId}/delete/`);
    const oneEnded = (await browser.get('/accounts/sessions/')).body;
    expect(oneEnded).toContain('class="messages"');
    expectWrapped('one session ended', oneEnded.replaceAll('title="lightMyRequest"', ''), user.username);
    await browser.post('/accounts/sessions/');
    const othersEnded = (await browser.get('/accounts/sessions/')).body;
    expect(othersEnded).toContain('class="messages"');
    expectWrapped('other sessions ended', othersEnded.replaceAll('title="lightMyRequest"', ''), user.username);
    await browser.post('/accounts/sessions/revoke-tokens/');
    const tokensRevoked = (await browser.get('/accounts/sessions/')).body;
    expect(tokensRevoked).toContain('class="messages"');
    expectWrapped('tokens revoked', tokensRevoked.replaceAll('title="lightMyRequest"', ''), user.username);
  });

  it('the account page, its errors, and the flash after saving', async () => {
    const { user, browser } = await loggedIn(t);
    expectWrapped('/accounts/', (await browser.get('/accounts/')).body, user.username);
    const bad = await browser.post('/accounts/', { email: 'nope', timezone: 'Mars/Olympus', currency: 'XXX', language: 'xx' });
    expect(bad.statusCode).toBe(400);
    expectWrapped('account, errors', bad.body, user.username, 'nope');
    expectWrapped('account, password asked', (await browser.post('/accounts/', { email: 'ann@example.test', timezone: 'UTC' })).body, user.username, 'ann@example.test');
    expect((await browser.post('/accounts/', { email: 'ann@example.test', timezone: 'UTC', currency: 'EUR', language: '', password: DEFAULT_PASSWORD })).statusCode).toBe(302);
    const saved = (await browser.get('/accounts/')).body;
    expect(saved).toContain('class="messages"');
    expectWrapped('account saved', saved, user.username, 'ann@example.test');
  });

  it('the password reset pages, from the request to the new password', async () => {
    const user = await createUser(t.db, { email: 'reset-me@example.test' });
    const browser = new TestBrowser(t.app, 'localhost', '10.1.0.3');
    expectWrapped('/accounts/password_reset/', (await browser.get('/accounts/password_reset/')).body);
    expectWrapped('reset request, error', (await browser.post('/accounts/password_reset/', { email: 'nope' })).body, 'nope');
    expect((await browser.post('/accounts/password_reset/', { email: 'reset-me@example.test' })).statusCode).toBe(302);
    for (let i = 0; i < 4; i++) await browser.post('/accounts/password_reset/', { email: 'reset-me@example.test' });
    const refused = await browser.post('/accounts/password_reset/', { email: 'reset-me@example.test' });
    expect(refused.statusCode).toBe(429);
    expectWrapped('reset request, too many', refused.body, 'reset-me@example.test');
    expectWrapped('/accounts/password_reset/done/', (await browser.get('/accounts/password_reset/done/')).body);
    const link = `/accounts/reset/${encodeUid(user.id)}/${makeResetToken(t.config.secretKey, user)}/`;
    expectWrapped('set password', (await browser.get(link)).body);
    expectWrapped('set password, errors', (await browser.post(link, { new_password1: '1234', new_password2: '12' })).body);
    expectWrapped('bad link', (await browser.get(`/accounts/reset/${encodeUid(user.id)}/nope-nope/`)).body);
    expect((await browser.post(link, { new_password1: 'violet-harbour-71', new_password2: 'violet-harbour-71' })).statusCode).toBe(302);
    expectWrapped('/accounts/reset/done/', (await browser.get('/accounts/reset/done/')).body);
  });

  it('the access tokens pages: none, errors, a new one, the list, the revocation', async () => {
    const { user, browser } = await loggedIn(t);
    expectWrapped('/accounts/tokens/', (await browser.get('/accounts/tokens/')).body, user.username);
    expectWrapped('tokens, errors', (await browser.post('/accounts/tokens/new/', { name: '', scope: 'all' })).body, user.username);
    expectWrapped('tokens, password asked', (await browser.post('/accounts/tokens/new/', { name: '⟦backup⟧', scope: 'write', password: 'wrong-one' })).body, user.username);
    const created = (await browser.post('/accounts/tokens/new/', { name: '⟦backup⟧', scope: 'write', password: DEFAULT_PASSWORD })).body;
    const token = /<code class="token-value">([^<]+)<\/code>/.exec(created)![1]!;
    const hintOf = (html: string) => /<code>(gnp_[^<]+)<\/code>/.exec(html)![1]!;
    expectWrapped('new token', created, user.username, token, hintOf(created));
    const list = (await browser.get('/accounts/tokens/')).body;
    expectWrapped('tokens list', list, user.username, hintOf(list));
    const id = /\/accounts\/tokens\/(\d+)\/delete\//.exec(list)![1]!;
    await browser.post(`/accounts/tokens/${id}/delete/`);
    expectWrapped('token revoked', (await browser.get('/accounts/tokens/')).body, user.username);
  });

  it('the two-factor pages: setup, its errors, the codes, on, the login code, turning it off', async () => {
    const { user, browser } = await loggedIn(t);
    const setup = (await browser.get('/accounts/2fa/')).body;
    const shown = /<code>([A-Z2-7 ]+)<\/code>/.exec(setup)![1]!;
    const secret = shown.replace(/ /g, '');
    expectWrapped('/accounts/2fa/', setup, user.username, shown);
    expectWrapped('2fa setup, errors', (await browser.post('/accounts/2fa/', { code: '000000', password: DEFAULT_PASSWORD })).body, user.username, shown);
    expectWrapped('2fa setup, no password', (await browser.post('/accounts/2fa/', { code: '000000' })).body, user.username, shown);
    const enabled = await browser.post('/accounts/2fa/', { code: totpCode(secret), password: DEFAULT_PASSWORD });
    expect(enabled.statusCode).toBe(200);
    const codes = [...enabled.body.matchAll(/<code>([0-9a-z-]{19})<\/code>/g)].map((match) => match[1]!);
    expectWrapped('recovery codes', enabled.body, user.username, ...codes);
    expectWrapped('2fa on', (await browser.get('/accounts/2fa/')).body, user.username);
    expectWrapped('2fa off, errors', (await browser.post('/accounts/2fa/disable/', { password: '', code: '' })).body, user.username);

    const second = new TestBrowser(t.app, 'localhost', '10.1.0.4');
    await second.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD });
    expectWrapped('login code', (await second.get('/accounts/login/2fa/')).body);
    expectWrapped('login code, wrong', (await second.post('/accounts/login/2fa/', { code: '000000' })).body);

    const off = await browser.post('/accounts/2fa/disable/', { password: DEFAULT_PASSWORD, code: codes[0]! });
    expect(off.statusCode).toBe(302);
    const offPage = (await browser.get('/accounts/2fa/')).body;
    expect(offPage).toContain('class="messages"');
    expectWrapped('2fa turned off', offPage, user.username, /<code>([A-Z2-7 ]+)<\/code>/.exec(offPage)![1]!);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, buildTestApp, createToken, DEFAULT_PASSWORD, loggedIn, racingOnLockedTable, type TestApp, type TestBrowser } from '../../../test/index.js';
import { TOKEN_PATTERN, hashToken } from '../../platform/api/tokens.js';
import { MAX_TOKENS_PER_USER } from './tokens-repository.js';

// The access tokens page: a token is shown once, in the answer that made it; only its hash is kept.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const rowsOf = (userId: number) => t.db.selectFrom('access_tokens').selectAll().where('user_id', '=', userId).orderBy('id').execute();

/** The token in the clear on a page, if any. */
const shownToken = (body: string) => /<code class="token-value">(gnp_[A-Za-z0-9]+)<\/code>/.exec(body)?.[1];

/** Made on the page, with the owner's password as the form asks. */
async function createOnPage(browser: TestBrowser, form: Record<string, string> = { name: 'backup script', scope: 'write' }) {
  const response = await browser.post('/accounts/tokens/new/', { password: DEFAULT_PASSWORD, ...form });
  return { response, token: shownToken(response.body) };
}

describe('creating a token', () => {
  it('shows the token once with a copy hint, stores only its hash, and the token authenticates the API', async () => {
    const { user, browser } = await loggedIn(t);
    const { response, token } = await createOnPage(browser);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(token).toMatch(TOKEN_PATTERN);
    expect(response.body).toContain('it is shown only this once');
    const [row] = await rowsOf(user.id);
    expect(row).toMatchObject({ name: 'backup script', scope: 'write', token_hash: hashToken(token!), hint: token!.slice(4, 8), last_used_at: null });
    expect(JSON.stringify(row)).not.toContain(token!.slice(4));
    const me = await new ApiClient(t.app, { token: token! }).get('/api/v1/me/');
    expect(me.statusCode).toBe(200);
    expect(me.data).toMatchObject({ id: user.id, username: user.username, token_scope: 'write' });
    // Never again: the list shows the hint only.
    const list = (await browser.get('/accounts/tokens/')).body;
    expect(list).not.toContain(token!);
    expect(shownToken(list)).toBeUndefined();
    expect(list).toContain(`gnp_${token!.slice(4, 8)}…`);
  });

  it('a read token may read and not write', async () => {
    const { browser } = await loggedIn(t);
    const { token } = await createOnPage(browser, { name: 'reader', scope: 'read' });
    const client = new ApiClient(t.app, { token: token! });
    expect((await client.get('/api/v1/me/')).data).toMatchObject({ token_scope: 'read' });
    expect((await client.post('/api/v1/me/', {})).statusCode).toBe(403);
  });

  it('shows the form again with messages (400) for a missing or long name or an unknown scope, storing nothing', async () => {
    const { user, browser } = await loggedIn(t);
    const cases: [Record<string, string>, string][] = [
      [{ name: '   ', scope: 'read' }, 'Name the token.'],
      // Invisible characters alone (zero-width space, joiner, soft hyphen) name nothing a person can tell apart.
      [{ name: '\u200b\u200d\u00ad', scope: 'read' }, 'Name the token.'],
      [{ scope: 'read' }, 'Name the token.'],
      [{ name: 'x'.repeat(101), scope: 'read' }, 'Token names have at most 100 characters.'],
      [{ name: 'ok', scope: 'admin' }, 'Select a valid choice: read or write.'],
      [{ name: 'ok' }, 'Select a valid choice: read or write.'],
    ];
    for (const [form, message] of cases) {
      const { response, token } = await createOnPage(browser, form);
      expect(response.statusCode).toBe(400);
      expect(response.body.split(message)).toHaveLength(2);
      expect(token).toBeUndefined();
    }
    expect(await rowsOf(user.id)).toEqual([]);
    const kept = await createOnPage(browser, { name: 'x'.repeat(100), scope: 'bogus' });
    expect(kept.response.body).toContain(`value="${'x'.repeat(100)}"`);
  });

  it(`refuses a token past ${MAX_TOKENS_PER_USER} per user (400), also when asked for at once`, async () => {
    const { user, browser } = await loggedIn(t);
    for (let i = 0; i < MAX_TOKENS_PER_USER - 2; i += 1) await createToken(t.db, user, 'read', `t${i}`);
    const answers = await racingOnLockedTable(t, 'access_tokens', () => Promise.all([1, 2, 3, 4].map((i) => createOnPage(browser, { name: `one more ${i}`, scope: 'read' }))));
    expect(answers.map((answer) => answer.response.statusCode).sort()).toEqual([200, 200, 400, 400]);
    expect(answers.filter((answer) => answer.token !== undefined)).toHaveLength(2);
    expect(answers.find((answer) => answer.response.statusCode === 400)!.response.body).toContain('the most one account may hold');
    expect(await rowsOf(user.id)).toHaveLength(MAX_TOKENS_PER_USER);
  });

  it('makes no second token when the answer is reloaded (the form sent again): a name is taken once, in every case and width', async () => {
    const { user, browser } = await loggedIn(t);
    const first = await createOnPage(browser, { name: 'Backup script', scope: 'read' });
    expect(first.token).toMatch(TOKEN_PATTERN);
    // With scripts on, the page's address becomes the list's, so that a reload asks for the list.
    expect(first.response.body).toContain('data-page-url="/accounts/tokens/"');
    for (const name of ['Backup script', 'backup  SCRIPT', 'Ｂａｃｋｕｐ script']) {
      const again = await createOnPage(browser, { name, scope: 'read' });
      expect(again.response.statusCode).toBe(400);
      expect(again.token).toBeUndefined();
      expect(again.response.body).toContain('You already have a token named');
    }
    expect(await rowsOf(user.id)).toHaveLength(1);
    // Its address opened with a GET (an error page's address entered again) is the list.
    const opened = await browser.get('/accounts/tokens/new/');
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/accounts/tokens/');
  });

  it('needs the CSRF token (403) and a login (to the login page), storing nothing', async () => {
    const { user, browser } = await loggedIn(t);
    expect((await browser.post('/accounts/tokens/new/', { name: 'x', scope: 'read' }, { csrf: false })).statusCode).toBe(403);
    expect(await rowsOf(user.id)).toEqual([]);
    const anonymous = await t.app.inject({ method: 'GET', url: '/accounts/tokens/', headers: { host: 'localhost' } });
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toMatch(/^\/accounts\/login\//);
  });
});

describe('the token list', () => {
  it('shows only the caller’s tokens with name, hint, scope, created and last used (after a use)', async () => {
    const { user, browser } = await loggedIn(t);
    const other = await loggedIn(t);
    const token = await createToken(t.db, user, 'read', 'laptop sync');
    await createToken(t.db, other.user, 'write', 'someone else’s');
    const before = (await browser.get('/accounts/tokens/')).body;
    expect(before).toContain('laptop sync');
    expect(before).toContain(`<code>gnp_${token.slice(4, 8)}…</code>`);
    expect(before).toContain('read only');
    expect(before).toMatch(/data-label="Last used">never</);
    expect(before).not.toContain('someone else’s');
    expect((await new ApiClient(t.app, { token }).get('/api/v1/me/')).statusCode).toBe(200);
    const after = (await browser.get('/accounts/tokens/')).body;
    expect(after).toMatch(/data-label="Last used"><time datetime="[0-9T:.-]+Z" data-zone="UTC"/);
  });

  it('is linked from the account page', async () => {
    const { browser } = await loggedIn(t);
    expect((await browser.get('/accounts/')).body).toContain('<a href="/accounts/tokens/">Access tokens</a>');
  });
});

describe('revoking a token', () => {
  it('asks first: the list links to a confirmation page naming the token, whose form revokes it', async () => {
    const { user, browser } = await loggedIn(t);
    const token = await createToken(t.db, user, 'write', 'home server');
    const [row] = await rowsOf(user.id);
    const list = (await browser.get('/accounts/tokens/')).body;
    expect(list).toContain(`<a href="/accounts/tokens/${row!.id}/delete/" role="button" class="secondary outline" data-confirm`);
    expect(list).not.toContain(`<form method="post" action="/accounts/tokens/${row!.id}/delete/"`);
    const confirmation = await browser.get(`/accounts/tokens/${row!.id}/delete/`);
    expect(confirmation.statusCode).toBe(200);
    expect(confirmation.body).toContain('Revoke the token “home server”?');
    expect(confirmation.body).toContain(`<code>gnp_${token.slice(4, 8)}…</code>`);
    expect(confirmation.body).toContain(`<form method="post" action="/accounts/tokens/${row!.id}/delete/">`);
    // Asking changes nothing.
    expect(await rowsOf(user.id)).toHaveLength(1);
    expect((await new ApiClient(t.app, { token }).get('/api/v1/me/')).statusCode).toBe(200);
  });

  it('shows the confirmation for the caller’s own tokens only: another user’s, an absent one and a malformed id are 404', async () => {
    const { browser } = await loggedIn(t);
    const other = await loggedIn(t);
    await createToken(t.db, other.user, 'read', 'not yours');
    const [row] = await rowsOf(other.user.id);
    for (const id of [String(row!.id), '999999999', 'abc', '0']) {
      const response = await browser.get(`/accounts/tokens/${id}/delete/`);
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('not yours');
    }
  });

  it('deletes it (302 to the list) and the API answers it 401 from then on', async () => {
    const { user, browser } = await loggedIn(t);
    const token = await createToken(t.db, user);
    const client = new ApiClient(t.app, { token });
    expect((await client.get('/api/v1/me/')).statusCode).toBe(200);
    const [row] = await rowsOf(user.id);
    const response = await browser.post(`/accounts/tokens/${row!.id}/delete/`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/tokens/');
    expect(await rowsOf(user.id)).toEqual([]);
    expect((await client.get('/api/v1/me/')).statusCode).toBe(401);
    expect((await browser.get('/accounts/tokens/')).body).toContain('The token was revoked');
  });

  it('answers another user’s token, an absent one and a malformed id with 404, revoking nothing', async () => {
    const { browser } = await loggedIn(t);
    const other = await loggedIn(t);
    const token = await createToken(t.db, other.user);
    const [row] = await rowsOf(other.user.id);
    for (const id of [String(row!.id), '999999999', 'abc', '0']) {
      expect((await browser.post(`/accounts/tokens/${id}/delete/`)).statusCode).toBe(404);
    }
    expect(await rowsOf(other.user.id)).toHaveLength(1);
    expect((await new ApiClient(t.app, { token }).get('/api/v1/me/')).statusCode).toBe(200);
  });

  it('needs the CSRF token (403), revoking nothing', async () => {
    const { user, browser } = await loggedIn(t);
    await createToken(t.db, user);
    const [row] = await rowsOf(user.id);
    expect((await browser.post(`/accounts/tokens/${row!.id}/delete/`, {}, { csrf: false })).statusCode).toBe(403);
    expect(await rowsOf(user.id)).toHaveLength(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type ApiResponse, buildTestApp, createGroup, createNote, createNotebook, createToken, createUser, findNote, loggedIn, racingOnLockedRow, results, type TestApp, TestBrowser } from '../../../test/index.js';
import type { User } from '../../db/schema.js';
import { encodeCursor } from '../../platform/api/paging.js';

// /api/v1/notebooks/: the owner's alone, like the pages; anyone else's is the 404 of an absent one.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** The `error` of a JSON error answer: its code and messages per field. */
const errorOf = (response: ApiResponse) => response.data.error as unknown as { code: string; fields: Record<string, string[]> };

const findNotebook = (id: number) => t.db.selectFrom('notebooks').selectAll().where('id', '=', id).executeTakeFirst();

/** A user with a read-write and a read-only token, and a stranger who shares a group with them. */
async function people() {
  const owner = await createUser(t.db);
  const member = await createUser(t.db);
  await createGroup(t.db, owner, [member]);
  return {
    owner,
    api: new ApiClient(t.app, { token: await createToken(t.db, owner, 'write') }),
    reader: new ApiClient(t.app, { token: await createToken(t.db, owner, 'read') }),
    member: new ApiClient(t.app, { token: await createToken(t.db, member, 'write') }),
    stranger: new ApiClient(t.app, { token: await createToken(t.db, await createUser(t.db), 'write') }),
  };
}

const notebookOf = (owner: User, title = 'Recipes') => createNotebook(t.db, owner, { title, description: 'Family favourites', color: '#aa3300' });

describe('GET /api/v1/notebooks/', () => {
  it('lists only the caller’s notebooks, in pages joined by `next`', async () => {
    const { owner, api, reader, stranger } = await people();
    const made = [];
    for (const title of ['a', 'b', 'c']) made.push(await notebookOf(owner, title));
    await notebookOf(await createUser(t.db), 'not yours');
    const first = await reader.get('/api/v1/notebooks/?limit=2');
    expect(first.statusCode).toBe(200);
    expect(results(first).map((notebook) => notebook.title)).toEqual(['a', 'b']);
    expect(results(first)[0]!).toEqual({
      id: made[0]!.id, title: 'a', description: 'Family favourites', color: '#aa3300',
      created_at: new Date(made[0]!.created_at).toISOString(), updated_at: new Date(made[0]!.updated_at).toISOString(),
    });
    const next = String(first.data.next);
    expect(next).toMatch(/^http:\/\/localhost\/api\/v1\/notebooks\/\?limit=2&cursor=/);
    const second = await api.get(next.replace('http://localhost', ''));
    expect(results(second).map((notebook) => notebook.title)).toEqual(['c']);
    expect(second.data.next).toBeNull();
    expect(results(await stranger.get('/api/v1/notebooks/'))).toEqual([]);
  });

  it('answers a cursor that is not its own and a bad limit with 400', async () => {
    const { api } = await people();
    expect(errorOf(await api.get('/api/v1/notebooks/?cursor=bogus')).fields).toHaveProperty('cursor');
    // Past the id columns' range: a PostgreSQL error if it reached the query.
    expect((await api.get(`/api/v1/notebooks/?cursor=${encodeCursor([3_000_000_000])}`)).statusCode).toBe(400);
    expect((await api.get('/api/v1/notebooks/?limit=101')).statusCode).toBe(400);
  });
});

describe('POST /api/v1/notebooks/', () => {
  it('creates a notebook for the caller: 201, the object and its Location', async () => {
    const { owner, api } = await people();
    const response = await api.post('/api/v1/notebooks/', { title: '  Recipes ', description: 'Family favourites', color: '#AA3300' });
    expect(response.statusCode).toBe(201);
    expect(response.data).toMatchObject({ title: 'Recipes', description: 'Family favourites', color: '#aa3300' });
    expect(response.headers.location).toBe(`/api/v1/notebooks/${response.data.id}/`);
    expect(await findNotebook(Number(response.data.id))).toMatchObject({ owner_id: owner.id, title: 'Recipes' });
    const plain = await api.post('/api/v1/notebooks/', { title: 'Plain' });
    expect(plain.data).toMatchObject({ description: '', color: '#4f6d7a' });
  });

  it('answers invalid bodies with 400 and the form’s messages per field, storing nothing', async () => {
    const { owner, api } = await people();
    const cases: [unknown, string, string][] = [
      [{}, 'title', 'This field is required.'],
      [{ title: ' ' }, 'title', 'This field is required.'],
      [{ title: 'x'.repeat(201) }, 'title', 'Titles have at most 200 characters.'],
      [{ title: 'ok', description: 'x'.repeat(2001) }, 'description', 'Descriptions have at most 2,000 characters.'],
      [{ title: 'ok', color: 'red' }, 'color', 'Enter a colour as #rrggbb, for example #3366cc.'],
      [{ title: 42 }, 'title', 'This field is required.'],
    ];
    for (const [body, field, message] of cases) {
      const response = await api.post('/api/v1/notebooks/', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).code).toBe('invalid');
      expect(errorOf(response).fields[field]).toContain(message);
    }
    const unknown = await api.post('/api/v1/notebooks/', { title: 'ok', owner: 1 });
    expect(unknown.statusCode).toBe(400);
    expect(Object.keys(errorOf(unknown).fields)).toEqual(['__all__']);
    expect(await t.db.selectFrom('notebooks').select('id').where('owner_id', '=', owner.id).execute()).toEqual([]);
  });

  it('refuses a read-only token with 403, storing nothing', async () => {
    const { owner, reader } = await people();
    expect((await reader.post('/api/v1/notebooks/', { title: 'Nope' })).statusCode).toBe(403);
    expect(await t.db.selectFrom('notebooks').select('id').where('owner_id', '=', owner.id).execute()).toEqual([]);
  });

  it('works with the session cookie and its CSRF header, as a page’s script would', async () => {
    const { user, browser } = await loggedIn(t);
    const response = await new ApiClient(t.app, { browser }).post('/api/v1/notebooks/', { title: 'From the page' });
    expect(response.statusCode).toBe(201);
    expect(await findNotebook(Number(response.data.id))).toMatchObject({ owner_id: user.id });
  });
});

describe('GET /api/v1/notebooks/:pk/', () => {
  it('shows the owner’s notebook (also to a read-only token) with an ETag; If-None-Match is a 304', async () => {
    const { owner, api, reader } = await people();
    const notebook = await notebookOf(owner);
    const response = await reader.get(`/api/v1/notebooks/${notebook.id}/`);
    expect(response.statusCode).toBe(200);
    expect(response.data).toMatchObject({ id: notebook.id, title: 'Recipes' });
    const again = await api.get(`/api/v1/notebooks/${notebook.id}/`, { headers: { 'if-none-match': String(response.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers a group co-member, a stranger, an absent and a malformed id with the same 404', async () => {
    const { owner, member, stranger, api } = await people();
    const notebook = await notebookOf(owner);
    for (const [client, id] of [[member, notebook.id], [stranger, notebook.id], [api, 999_999_999], [api, 3_000_000_000], [api, 'abc'], [api, 0]] as const) {
      const response = await client.get(`/api/v1/notebooks/${id}/`);
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).code).toBe('not_found');
    }
  });
});

describe('PATCH /api/v1/notebooks/:pk/', () => {
  it('changes only the fields sent', async () => {
    const { owner, api } = await people();
    const notebook = await notebookOf(owner);
    const response = await api.patch(`/api/v1/notebooks/${notebook.id}/`, { title: 'Cooking' });
    expect(response.statusCode).toBe(200);
    expect(response.data).toMatchObject({ title: 'Cooking', description: 'Family favourites', color: '#aa3300' });
    expect(await findNotebook(notebook.id)).toMatchObject({ title: 'Cooking', description: 'Family favourites' });
  });

  it('with an old ETag after a change on the page: 412 and nothing changed; with the new one: 200', async () => {
    const { owner, api } = await people();
    const notebook = await notebookOf(owner);
    const read = await api.get(`/api/v1/notebooks/${notebook.id}/`);
    const browser = new TestBrowser(t.app);
    await browser.login(owner.username);
    expect((await browser.post(`/notebooks/${notebook.id}/edit/`, { title: 'Changed elsewhere', description: 'Family favourites', color: '#aa3300' })).statusCode).toBe(302);
    const stale = await api.patch(`/api/v1/notebooks/${notebook.id}/`, { title: 'Mine' }, { headers: { 'if-match': String(read.headers.etag) } });
    expect(stale.statusCode).toBe(412);
    expect(errorOf(stale).code).toBe('precondition_failed');
    expect(await findNotebook(notebook.id)).toMatchObject({ title: 'Changed elsewhere' });
    const fresh = await api.get(`/api/v1/notebooks/${notebook.id}/`);
    const saved = await api.patch(`/api/v1/notebooks/${notebook.id}/`, { title: 'Mine' }, { headers: { 'if-match': String(fresh.headers.etag) } });
    expect(saved.statusCode).toBe(200);
    expect(saved.headers.etag).not.toBe(fresh.headers.etag);
    expect(await findNotebook(notebook.id)).toMatchObject({ title: 'Mine' });
  });

  it('of two updates at once with the same If-Match, one wins and the other gets 412', async () => {
    const { owner, api } = await people();
    const notebook = await notebookOf(owner);
    const etag = String((await api.get(`/api/v1/notebooks/${notebook.id}/`)).headers.etag);
    const answers = await racingOnLockedRow(t, 'notebooks', notebook.id, () =>
      Promise.all(['first', 'second'].map((title) => api.patch(`/api/v1/notebooks/${notebook.id}/`, { title }, { headers: { 'if-match': etag } }))),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 412]);
    expect((await findNotebook(notebook.id))!.title).toBe(answers.find((answer) => answer.statusCode === 200)!.data.title);
  });

  it('refuses a read-only token (403), a co-member and a stranger (404), and bad bodies (400), changing nothing', async () => {
    const { owner, reader, member, stranger, api } = await people();
    const notebook = await notebookOf(owner);
    expect((await reader.patch(`/api/v1/notebooks/${notebook.id}/`, { title: 'x' })).statusCode).toBe(403);
    expect((await member.patch(`/api/v1/notebooks/${notebook.id}/`, { title: 'x' })).statusCode).toBe(404);
    expect((await stranger.patch(`/api/v1/notebooks/${notebook.id}/`, { title: 'x' })).statusCode).toBe(404);
    const bad = await api.patch(`/api/v1/notebooks/${notebook.id}/`, { title: '', color: '#12' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad).fields).sort()).toEqual(['color', 'title']);
    expect(await findNotebook(notebook.id)).toEqual(notebook);
  });
});

describe('DELETE /api/v1/notebooks/:pk/', () => {
  it('deletes the notebook (204); its notes stay, without a notebook', async () => {
    const { owner, api } = await people();
    const notebook = await notebookOf(owner);
    const note = await createNote(t.db, owner, { notebook_id: notebook.id });
    const response = await api.delete(`/api/v1/notebooks/${notebook.id}/`);
    expect(response.statusCode).toBe(204);
    expect(await findNotebook(notebook.id)).toBeUndefined();
    expect(await findNote(t.db, note.id)).toMatchObject({ notebook_id: null });
    expect((await api.get(`/api/v1/notebooks/${notebook.id}/`)).statusCode).toBe(404);
  });

  it('refuses a read-only token (403), a co-member and a stranger (404), deleting nothing', async () => {
    const { owner, reader, member, stranger } = await people();
    const notebook = await notebookOf(owner);
    expect((await reader.delete(`/api/v1/notebooks/${notebook.id}/`)).statusCode).toBe(403);
    expect((await member.delete(`/api/v1/notebooks/${notebook.id}/`)).statusCode).toBe(404);
    expect((await stranger.delete(`/api/v1/notebooks/${notebook.id}/`)).statusCode).toBe(404);
    expect(await findNotebook(notebook.id)).toEqual(notebook);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type ApiResponse, buildTestApp, createGroup, createNote, createTag, createToken, createUser, racingOnLockedRow, results, type TestApp, TestBrowser } from '../../../test/index.js';
import type { User } from '../../db/schema.js';

// /api/v1/tags/: the owner's alone, like the pages; names unique per owner by the same identity key.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const errorOf = (response: ApiResponse) => response.data.error as unknown as { code: string; fields: Record<string, string[]> };
const findTag = (id: number) => t.db.selectFrom('tags').selectAll().where('id', '=', id).executeTakeFirst();
const tagsOf = (owner: User) => t.db.selectFrom('tags').select(['name', 'color']).where('owner_id', '=', owner.id).orderBy('id').execute();
const NAME_TAKEN = 'You already have a tag with this name.';

/** A user with a read-write and a read-only token, a member of their group, and a stranger. */
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

describe('GET /api/v1/tags/', () => {
  it('lists only the caller’s tags, in pages joined by `next`', async () => {
    const { owner, api, reader, stranger } = await people();
    const made = [await createTag(t.db, owner, { name: 'work', color: '#112233' }), await createTag(t.db, owner, { name: 'home' }), await createTag(t.db, owner, { name: 'trip' })];
    await createTag(t.db, await createUser(t.db), { name: 'not yours' });
    const first = await reader.get('/api/v1/tags/?limit=2');
    expect(first.statusCode).toBe(200);
    expect(results(first)).toEqual([{ id: made[0]!.id, name: 'work', color: '#112233' }, { id: made[1]!.id, name: 'home', color: '#6c757d' }]);
    const second = await api.get(String(first.data.next).replace('http://localhost', ''));
    expect(results(second).map((tag) => tag.name)).toEqual(['trip']);
    expect(second.data.next).toBeNull();
    expect(results(await stranger.get('/api/v1/tags/'))).toEqual([]);
    expect(errorOf(await api.get('/api/v1/tags/?cursor=WzBd')).fields).toHaveProperty('cursor');
  });
});

describe('POST /api/v1/tags/', () => {
  it('creates a tag: 201, the object and its Location', async () => {
    const { owner, api } = await people();
    const response = await api.post('/api/v1/tags/', { name: ' urgent ', color: '#FF0000' });
    expect(response.statusCode).toBe(201);
    expect(response.data).toEqual({ id: response.data.id, name: 'urgent', color: '#ff0000' });
    expect(response.headers.location).toBe(`/api/v1/tags/${response.data.id}/`);
    expect(await tagsOf(owner)).toEqual([{ name: 'urgent', color: '#ff0000' }]);
  });

  it('refuses a name the owner has by its identity key (case, width, ß) with 400 on `name`; another user may use it', async () => {
    const { owner, api, stranger } = await people();
    await createTag(t.db, owner, { name: 'Straße' });
    await createTag(t.db, owner, { name: 'trip' });
    for (const name of ['STRASSE', 'straße', 'Ｔｒｉｐ', 'TRIP']) {
      const response = await api.post('/api/v1/tags/', { name });
      expect(response.statusCode, name).toBe(400);
      expect(errorOf(response)).toMatchObject({ code: 'invalid', fields: { name: [NAME_TAKEN] } });
    }
    expect(await tagsOf(owner)).toHaveLength(2);
    expect((await stranger.post('/api/v1/tags/', { name: 'trip' })).statusCode).toBe(201);
    // Accents are kept: a different name.
    expect((await api.post('/api/v1/tags/', { name: 'Trîp' })).statusCode).toBe(201);
  });

  it('of two creates of one name at once, one is a 201 and the other the 400 on `name`', async () => {
    const { owner, api } = await people();
    const answers = await Promise.all(['Twin', 'TWIN', 'twin'].map((name) => api.post('/api/v1/tags/', { name })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 400, 400]);
    expect(answers.filter((answer) => answer.statusCode === 400).map((answer) => errorOf(answer).fields)).toEqual([{ name: [NAME_TAKEN] }, { name: [NAME_TAKEN] }]);
    expect(await tagsOf(owner)).toHaveLength(1);
  });

  it('answers invalid bodies with 400 and the form’s messages per field, storing nothing', async () => {
    const { owner, api } = await people();
    const cases: [unknown, string, string][] = [
      [{}, 'name', 'This field is required.'],
      [{ name: '   ' }, 'name', 'This field is required.'],
      [{ name: '\u200b' }, 'name', 'This field is required.'],
      [{ name: 'x'.repeat(51) }, 'name', 'Tag names have at most 50 characters.'],
      [{ name: 'ok', color: '#12345g' }, 'color', 'Enter a colour as #rrggbb, for example #3366cc.'],
    ];
    for (const [body, field, message] of cases) {
      const response = await api.post('/api/v1/tags/', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).fields[field]).toContain(message);
    }
    expect((await api.post('/api/v1/tags/', { name: 'ok', owner_id: 1 })).statusCode).toBe(400);
    expect(await tagsOf(owner)).toEqual([]);
  });

  it('refuses a read-only token with 403, storing nothing', async () => {
    const { owner, reader } = await people();
    expect((await reader.post('/api/v1/tags/', { name: 'nope' })).statusCode).toBe(403);
    expect(await tagsOf(owner)).toEqual([]);
  });
});

describe('GET /api/v1/tags/:pk/', () => {
  it('shows the owner’s tag with an ETag (If-None-Match: 304); anyone else, an absent or a malformed id: 404', async () => {
    const { owner, reader, member, stranger, api } = await people();
    const tag = await createTag(t.db, owner, { name: 'work' });
    const response = await reader.get(`/api/v1/tags/${tag.id}/`);
    expect(response.data).toEqual({ id: tag.id, name: 'work', color: tag.color });
    expect((await api.get(`/api/v1/tags/${tag.id}/`, { headers: { 'if-none-match': String(response.headers.etag) } })).statusCode).toBe(304);
    for (const [client, id] of [[member, tag.id], [stranger, tag.id], [api, 999_999_999], [api, 'x']] as const) {
      expect((await client.get(`/api/v1/tags/${id}/`)).statusCode).toBe(404);
    }
  });
});

describe('PATCH /api/v1/tags/:pk/', () => {
  it('changes only the fields sent; keeping its own name in another case is allowed', async () => {
    const { owner, api } = await people();
    const tag = await createTag(t.db, owner, { name: 'work', color: '#112233' });
    const response = await api.patch(`/api/v1/tags/${tag.id}/`, { name: 'WORK' });
    expect(response.statusCode).toBe(200);
    expect(response.data).toEqual({ id: tag.id, name: 'WORK', color: '#112233' });
    expect((await api.patch(`/api/v1/tags/${tag.id}/`, { color: '#abcdef' })).data).toEqual({ id: tag.id, name: 'WORK', color: '#abcdef' });
  });

  it('refuses renaming onto another of the owner’s tags with 400 on `name`, changing nothing', async () => {
    const { owner, api } = await people();
    await createTag(t.db, owner, { name: 'home' });
    const tag = await createTag(t.db, owner, { name: 'work' });
    const response = await api.patch(`/api/v1/tags/${tag.id}/`, { name: 'HOME', color: '#000000' });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).fields).toEqual({ name: [NAME_TAKEN] });
    expect(await findTag(tag.id)).toEqual(tag);
  });

  it('with an old ETag after a change on the page: 412 and nothing changed; with the new one: 200', async () => {
    const { owner, api } = await people();
    const tag = await createTag(t.db, owner, { name: 'work' });
    const read = await api.get(`/api/v1/tags/${tag.id}/`);
    const browser = new TestBrowser(t.app);
    await browser.login(owner.username);
    expect((await browser.post(`/tags/${tag.id}/edit/`, { name: 'office', color: '#6c757d' })).statusCode).toBe(302);
    const stale = await api.patch(`/api/v1/tags/${tag.id}/`, { name: 'mine' }, { headers: { 'if-match': String(read.headers.etag) } });
    expect(stale.statusCode).toBe(412);
    expect((await findTag(tag.id))!.name).toBe('office');
    const fresh = await api.get(`/api/v1/tags/${tag.id}/`);
    expect((await api.patch(`/api/v1/tags/${tag.id}/`, { name: 'mine' }, { headers: { 'if-match': String(fresh.headers.etag) } })).statusCode).toBe(200);
    expect((await findTag(tag.id))!.name).toBe('mine');
  });

  it('of two updates at once with the same If-Match, one wins and the other gets 412', async () => {
    const { owner, api } = await people();
    const tag = await createTag(t.db, owner, { name: 'work' });
    const etag = String((await api.get(`/api/v1/tags/${tag.id}/`)).headers.etag);
    const answers = await racingOnLockedRow(t, 'tags', tag.id, () =>
      Promise.all(['first', 'second'].map((name) => api.patch(`/api/v1/tags/${tag.id}/`, { name }, { headers: { 'if-match': etag } }))),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 412]);
    expect((await findTag(tag.id))!.name).toBe(answers.find((answer) => answer.statusCode === 200)!.data.name);
  });

  it('refuses a read-only token (403), a co-member and a stranger (404), and bad bodies (400), changing nothing', async () => {
    const { owner, reader, member, stranger, api } = await people();
    const tag = await createTag(t.db, owner, { name: 'work' });
    expect((await reader.patch(`/api/v1/tags/${tag.id}/`, { name: 'x' })).statusCode).toBe(403);
    expect((await member.patch(`/api/v1/tags/${tag.id}/`, { name: 'x' })).statusCode).toBe(404);
    expect((await stranger.patch(`/api/v1/tags/${tag.id}/`, { name: 'x' })).statusCode).toBe(404);
    expect(errorOf(await api.patch(`/api/v1/tags/${tag.id}/`, { name: '' })).fields).toHaveProperty('name');
    expect(await findTag(tag.id)).toEqual(tag);
  });
});

describe('DELETE /api/v1/tags/:pk/', () => {
  it('deletes the tag (204); it comes off its notes, which stay', async () => {
    const { owner, api } = await people();
    const tag = await createTag(t.db, owner);
    const note = await createNote(t.db, owner, { tags: [tag] });
    expect((await api.delete(`/api/v1/tags/${tag.id}/`)).statusCode).toBe(204);
    expect(await findTag(tag.id)).toBeUndefined();
    expect(await t.db.selectFrom('note_tags').selectAll().where('note_id', '=', note.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('notes').select('id').where('id', '=', note.id).executeTakeFirst()).toBeDefined();
  });

  it('refuses a read-only token (403), a co-member and a stranger (404), deleting nothing', async () => {
    const { owner, reader, member, stranger } = await people();
    const tag = await createTag(t.db, owner);
    expect((await reader.delete(`/api/v1/tags/${tag.id}/`)).statusCode).toBe(403);
    expect((await member.delete(`/api/v1/tags/${tag.id}/`)).statusCode).toBe(404);
    expect((await stranger.delete(`/api/v1/tags/${tag.id}/`)).statusCode).toBe(404);
    expect(await findTag(tag.id)).toEqual(tag);
  });
});

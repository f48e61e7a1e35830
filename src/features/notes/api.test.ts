import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, Note, User } from '../../db/schema.js';
import { ApiClient, buildTestApp, createGroup, createNote, createNotebook, createTag, createToken, findNote, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

/** The API's words for an id that names nothing the caller may use (platform.json's form.invalid_choice). */
const INVALID_CHOICE = 'Select a valid choice. That choice is not one of the available choices.';

// The notes API with the pages' rules: the owner reads
// and changes; a member of the note's group reads only; anyone else gets the 404 of a missing note.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let member: { user: User; browser: TestBrowser };
let stranger: { user: User; browser: TestBrowser };
let group: Group;
let api: { owner: ApiClient; member: ApiClient; stranger: ApiClient; ownerReadOnly: ApiClient };

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  member = await loggedIn(t);
  stranger = await loggedIn(t);
  group = await createGroup(t.db, owner.user, [member.user]);
  const client = async (user: User, scope: 'read' | 'write' = 'write') => new ApiClient(t.app, { token: await createToken(t.db, user, scope) });
  api = { owner: await client(owner.user), member: await client(member.user), stranger: await client(stranger.user), ownerReadOnly: await client(owner.user, 'read') };
});
afterAll(() => t.close());

const groupNote = (overrides: Partial<Note> = {}) => createNote(t.db, owner.user, { group_id: group.id, ...overrides });
const url = (id: number) => `/api/v1/notes/${id}/`;
const noteCount = async () => Number((await t.db.selectFrom('notes').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const tagIdsOf = async (noteId: number) => (await t.db.selectFrom('note_tags').select('tag_id').where('note_id', '=', noteId).orderBy('tag_id').execute()).map((row) => row.tag_id);

describe('POST /api/v1/notes/', () => {
  it('creates a note of the caller, linked to their notebook and tags and a group they are in: 201, Location, the object', async () => {
    const notebook = await createNotebook(t.db, owner.user);
    const [a, b] = [await createTag(t.db, owner.user), await createTag(t.db, owner.user)];
    const response = await api.owner.post('/api/v1/notes/', {
      title: '  Plan  ', content: 'Line 1\r\nLine 2', notebook: notebook.id, tags: [b.id, a.id, b.id], group: group.id, priority: 3, is_pinned: true,
    });
    expect(response.statusCode).toBe(201);
    const id = response.data.id as unknown as number;
    expect(response.headers.location).toBe(`/api/v1/notes/${id}/`);
    expect(response.headers.etag).toMatch(/^"/);
    expect(response.data).toEqual({
      id, title: 'Plan', content: 'Line 1\nLine 2', notebook: notebook.id, tags: [a.id, b.id].sort((x, y) => x - y), group: group.id, priority: 3,
      is_pinned: true, is_archived: false, owner: owner.user.username, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), updated_at: expect.any(String),
    });
    expect(await findNote(t.db, id)).toMatchObject({ owner_id: owner.user.id, title: 'Plan', notebook_id: notebook.id, group_id: group.id, priority: 3, is_pinned: 1 });
    expect(await tagIdsOf(id)).toEqual([a.id, b.id].sort((x, y) => x - y));
    // The Location answers the group's member, who may read it, the same object without the owner's notebook and tags.
    const read = await api.member.get(response.headers.location as string);
    expect(read.statusCode).toBe(200);
    expect(read.data).toEqual({ ...response.data, notebook: null, tags: [] });
  });

  it('refuses a notebook or tag of someone else and a group the caller is not in: 400 on that field, nothing created', async () => {
    const [theirNotebook, theirTag, mine] = [await createNotebook(t.db, stranger.user), await createTag(t.db, stranger.user), await createTag(t.db, owner.user)];
    const othersGroup = await createGroup(t.db, stranger.user);
    const before = await noteCount();
    for (const [field, value] of [['notebook', theirNotebook.id], ['tags', [mine.id, theirTag.id]], ['group', othersGroup.id], ['notebook', 2_000_000_000]] as const) {
      const response = await api.owner.post('/api/v1/notes/', { title: 'Probe', [field]: value });
      expect(response.statusCode, field).toBe(400);
      expect(response.data.error?.code).toBe('invalid');
      expect(response.data.error?.fields).toEqual({ [field]: [INVALID_CHOICE] });
    }
    expect(await noteCount()).toBe(before);
  });

  it('answers 400 with a message per field to bodies that are not a note, and creates nothing', async () => {
    const before = await noteCount();
    const cases: [unknown, string][] = [
      [{}, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(201) }, 'title'],
      [{ title: 'ok', content: 'x'.repeat(100_001) }, 'content'],
      [{ title: 'ok', content: 5 }, 'content'],
      [{ title: 'ok', priority: 4 }, 'priority'],
      [{ title: 'ok', priority: '2' }, 'priority'],
      [{ title: 'ok', is_pinned: 'yes' }, 'is_pinned'],
      [{ title: 'ok', notebook: '3' }, 'notebook'],
      [{ title: 'ok', group: 0 }, 'group'],
      [{ title: 'ok', tags: 7 }, 'tags'],
      [{ title: 'ok', tags: [1.5] }, 'tags.0'],
      [{ title: 'ok', tags: Array.from({ length: 101 }, (_, i) => i + 1) }, 'tags'],
      [{ title: 'ok', owner: 'someone' }, '__all__'],
      [[{ title: 'ok' }], '__all__'],
    ];
    for (const [body, field] of cases) {
      const response = await api.owner.post('/api/v1/notes/', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(Object.keys(response.data.error?.fields ?? {}), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    expect((await api.owner.post('/api/v1/notes/', { title: 'x' })).data.error).toBeUndefined();
    expect(await noteCount()).toBe(before + 1);
  });

  it('keeps Unicode as sent', async () => {
    const title = 'Zürich 東京 👩‍👩‍👧 \u202Eevil';
    const response = await api.owner.post('/api/v1/notes/', { title, content: '<script>alert(1)</script>' });
    expect(response.statusCode).toBe(201);
    expect(response.data.title).toBe(title);
    expect((await api.owner.get(url(response.data.id as unknown as number))).data.content).toBe('<script>alert(1)</script>');
  });
});

describe('GET /api/v1/notes/:pk/', () => {
  it('answers the owner and the group member the same object; a stranger the 404 of a missing note', async () => {
    const note = await groupNote({ title: 'Shared', priority: 2 });
    const mine = await api.owner.get(url(note.id));
    expect(mine.statusCode).toBe(200);
    expect(mine.data).toMatchObject({ id: note.id, title: 'Shared', group: group.id, priority: 2, owner: owner.user.username, tags: [] });
    const theirs = await api.member.get(url(note.id));
    expect(theirs.statusCode).toBe(200);
    expect(theirs.data).toEqual(mine.data);
    expect(theirs.headers.etag).toBe(mine.headers.etag);

    const hidden = await api.stranger.get(url(note.id));
    const missing = await api.stranger.get(url(2_000_000_000));
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).toBe(missing.body);
    for (const path of ['/api/v1/notes/0/', '/api/v1/notes/abc/', '/api/v1/notes/2147483648/', '/api/v1/notes/99999999999999999999/']) {
      const response = await api.owner.get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.data.error?.code).toBe('not_found');
    }
  });

  it('shows the owner their notebook and tag ids, and a group member neither, in the note and the collection', async () => {
    const notebook = await createNotebook(t.db, owner.user);
    const tag = await createTag(t.db, owner.user);
    const note = await createNote(t.db, owner.user, { group_id: group.id, title: 'Filed', notebook_id: notebook.id, tags: [tag] });
    expect((await api.owner.get(url(note.id))).data).toMatchObject({ notebook: notebook.id, tags: [tag.id] });
    const theirs = await api.member.get(url(note.id));
    expect([theirs.statusCode, theirs.data.notebook, theirs.data.tags]).toEqual([200, null, []]);
    const listed = (await api.member.get('/api/v1/notes/?limit=100')).data.results as unknown as { id: number; notebook: unknown; tags: unknown }[];
    expect(listed.find((row) => row.id === note.id)).toMatchObject({ notebook: null, tags: [] });
    const search = (await api.member.get('/api/v1/notes/?q=Filed')).data.results as unknown as { id: number; notebook: unknown; tags: unknown }[];
    expect(search.find((row) => row.id === note.id)).toMatchObject({ notebook: null, tags: [] });
  });

  it('answers 304 to If-None-Match with the current ETag, and 200 with a new one once the note changed', async () => {
    const note = await groupNote();
    const first = await api.member.get(url(note.id));
    const etag = first.headers.etag as string;
    const again = await api.member.get(url(note.id), { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await owner.browser.post(`/notes/${note.id}/edit/`, { title: 'Edited on the page', group: String(group.id) });
    const changed = await api.member.get(url(note.id), { headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.data.title).toBe('Edited on the page');
    expect(changed.headers.etag).not.toBe(etag);
  });
});

describe('read-only tokens', () => {
  it('read, but every write is a 403 that changes nothing', async () => {
    const note = await groupNote({ title: 'Kept' });
    expect((await api.ownerReadOnly.get(url(note.id))).statusCode).toBe(200);
    expect((await api.ownerReadOnly.get('/api/v1/notes/')).statusCode).toBe(200);
    const before = await noteCount();
    const writes = [
      api.ownerReadOnly.post('/api/v1/notes/', { title: 'New' }),
      api.ownerReadOnly.patch(url(note.id), { title: 'Changed' }),
      api.ownerReadOnly.post(`${url(note.id)}pin/`),
      api.ownerReadOnly.delete(url(note.id)),
    ];
    for (const response of await Promise.all(writes)) {
      expect(response.statusCode).toBe(403);
      expect(response.data.error?.code).toBe('forbidden');
    }
    expect(await noteCount()).toBe(before);
    expect(await findNote(t.db, note.id)).toMatchObject({ title: 'Kept', is_pinned: 0 });
  });
});

describe('DELETE /api/v1/notes/:pk/', () => {
  it('is a 404 for the group member and the stranger, then deletes the owner\'s note (204); a second delete is a 404', async () => {
    const note = await groupNote();
    for (const client of [api.member, api.stranger]) {
      expect((await client.delete(url(note.id))).statusCode).toBe(404);
      expect(await findNote(t.db, note.id)).toBeDefined();
    }
    const deleted = await api.owner.delete(url(note.id));
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(await findNote(t.db, note.id)).toBeUndefined();
    expect((await api.owner.delete(url(note.id))).statusCode).toBe(404);
    expect((await api.member.get(url(note.id))).statusCode).toBe(404);
  });
});

describe('POST /api/v1/notes/:pk/pin/', () => {
  it('toggles the owner\'s pin and answers the note; the member and the stranger get 404 and change nothing', async () => {
    const note = await groupNote();
    for (const client of [api.member, api.stranger]) {
      expect((await client.post(`${url(note.id)}pin/`)).statusCode).toBe(404);
    }
    expect((await findNote(t.db, note.id))?.is_pinned).toBe(0);
    const pinned = await api.owner.post(`${url(note.id)}pin/`);
    expect(pinned.statusCode).toBe(200);
    expect(pinned.data).toMatchObject({ id: note.id, is_pinned: true });
    expect((await findNote(t.db, note.id))?.is_pinned).toBe(1);
    const unpinned = await api.owner.post(`${url(note.id)}pin/`);
    expect(unpinned.data.is_pinned).toBe(false);
    expect((await findNote(t.db, note.id))?.is_pinned).toBe(0);
  });
});

describe('the Django application\'s paths', () => {
  it('/api/notes/ and /api/notes/:pk/ (and pin) answer as the v1 paths do', async () => {
    const created = await api.owner.post('/api/notes/', { title: 'Old client', group: group.id });
    expect(created.statusCode).toBe(201);
    const id = created.data.id as unknown as number;
    expect(created.headers.location).toBe(url(id));
    const read = await api.member.get(`/api/notes/${id}/`);
    expect(read.statusCode).toBe(200);
    expect(read.data).toEqual((await api.member.get(url(id))).data);
    expect((await api.owner.get('/api/notes/?limit=100')).data.results).toContainEqual(read.data);
    expect((await api.stranger.get(`/api/notes/${id}/`)).statusCode).toBe(404);
    expect((await api.member.patch(`/api/notes/${id}/`, { title: 'Not yours' })).statusCode).toBe(404);
    const patched = await api.owner.patch(`/api/notes/${id}/`, { title: 'Renamed' }, { headers: { 'if-match': read.headers.etag as string } });
    expect(patched.data).toMatchObject({ title: 'Renamed' });
    expect((await api.owner.post(`/api/notes/${id}/pin/`)).data.is_pinned).toBe(true);
    expect((await api.owner.delete(`/api/notes/${id}/`)).statusCode).toBe(204);
    expect(await findNote(t.db, id)).toBeUndefined();
  });
});

describe('the OpenAPI document', () => {
  it('describes the notes operations from the schemas that validate them, the old paths as deprecated', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const { paths } = response.json() as { paths: Record<string, Record<string, { deprecated?: boolean; requestBody?: unknown; responses: Record<string, unknown>; parameters: { name: string }[] }>> };
    expect(Object.keys(paths['/api/v1/notes/{pk}/']!).sort()).toEqual(['delete', 'get', 'patch']);
    expect(paths['/api/v1/notes/{pk}/']!.patch!.responses).toHaveProperty('412');
    expect(paths['/api/v1/notes/']!.get!.parameters.map((parameter) => parameter.name)).toEqual(['q', 'tag', 'notebook', 'archived', 'cursor', 'limit']);
    expect(JSON.stringify(paths['/api/v1/notes/']!.post!.requestBody)).toContain('"is_pinned"');
    expect(paths['/api/notes/{pk}/pin/']!.post!.deprecated).toBe(true);
    expect(paths['/api/v1/notes/{pk}/pin/']!.post!.deprecated).toBeUndefined();
    expect(Object.keys(paths['/api/v1/notes/{pk}/reminders/']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/v1/reminders/{pk}/']!).sort()).toEqual(['delete', 'get']);
  });
});

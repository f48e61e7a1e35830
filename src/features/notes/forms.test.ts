import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createGroup, createNote, createNotebook, createTag, findNote, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

let t: TestApp;
let me: { user: User; browser: TestBrowser };
let other: User;

beforeAll(async () => {
  t = await buildTestApp();
  me = await loggedIn(t);
  other = (await loggedIn(t)).user;
});
afterAll(() => t.close());

const countNotes = async (ownerId: number) =>
  Number((await t.db.selectFrom('notes').select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow()).n);

describe('links to notebooks, tags and groups', () => {
  it('stores the caller’s own notebook, tags and group', async () => {
    const notebook = await createNotebook(t.db, me.user);
    const [work, home] = [await createTag(t.db, me.user), await createTag(t.db, me.user)];
    const group = await createGroup(t.db, me.user);
    const response = await me.browser.post('/notes/new/', {
      title: 'Linked', notebook: notebook.id, tags: [work!.id, home!.id], group: group.id, priority: 3, is_pinned: 'on', is_archived: 'on',
    });
    expect(response.statusCode).toBe(302);
    const id = Number(/(\d+)/.exec(response.headers.location as string)?.[1]);
    expect(await findNote(t.db, id)).toMatchObject({ notebook_id: notebook.id, group_id: group.id, priority: 3, is_pinned: 1, is_archived: 1 });
    const tagIds = (await t.db.selectFrom('note_tags').select('tag_id').where('note_id', '=', id).execute()).map((row) => row.tag_id);
    expect(tagIds.sort()).toEqual([work!.id, home!.id].sort());
  });

  it.each([
    ['notebook', async () => ({ notebook: (await createNotebook(t.db, other)).id })],
    ['tags', async () => ({ tags: [(await createTag(t.db, me.user)).id, (await createTag(t.db, other)).id] })],
    ['group', async () => ({ group: (await createGroup(t.db, other)).id })],
    ['notebook', async () => ({ notebook: 2_000_000_000 })],
  ])('refuses a foreign or unknown %s with 400, storing and linking nothing', async (field, make) => {
    const before = await countNotes(me.user.id);
    const links = await make();
    const response = await me.browser.post('/notes/new/', { title: 'Sneaky', content: 'typed text', ...links });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(`id="id_${field}_errors"`);
    expect(response.body).toContain('Select a valid choice.');
    expect(response.body).toContain('value="Sneaky"');
    expect(response.body).toContain('typed text</textarea>');
    expect(await countNotes(me.user.id)).toBe(before);
  });

  it('refuses a foreign link on edit and leaves the note and its tags as they were', async () => {
    const mine = await createTag(t.db, me.user);
    const note = await createNote(t.db, me.user, { title: 'Keep me', tags: [mine] });
    const foreignTag = await createTag(t.db, other);
    const foreignGroup = await createGroup(t.db, other);
    const before = await findNote(t.db, note.id);
    for (const links of [{ tags: [foreignTag.id] }, { group: foreignGroup.id }, { notebook: (await createNotebook(t.db, other)).id }]) {
      const response = await me.browser.post(`/notes/${note.id}/edit/`, { title: 'Changed', ...links });
      expect(response.statusCode).toBe(400);
    }
    expect(await findNote(t.db, note.id)).toEqual(before);
    const tags = await t.db.selectFrom('note_tags').select('tag_id').where('note_id', '=', note.id).execute();
    expect(tags).toEqual([{ tag_id: mine.id }]);
  });

  it('replaces a note’s tags on edit: the one kept stays, the one unticked goes, the one ticked comes, with nothing else', async () => {
    const [kept, dropped, added] = [await createTag(t.db, me.user), await createTag(t.db, me.user), await createTag(t.db, me.user)];
    const note = await createNote(t.db, me.user, { title: 'Retag me', tags: [kept, dropped] });
    const untouched = await createNote(t.db, me.user, { title: 'Leave me', tags: [kept, dropped] });
    const tagsOf = async (id: number) => (await t.db.selectFrom('note_tags').select('tag_id').where('note_id', '=', id).execute()).map((row) => row.tag_id).sort();
    const response = await me.browser.post(`/notes/${note.id}/edit/`, { title: 'Retagged', tags: [kept.id, added.id] });
    expect(response.statusCode).toBe(302);
    expect(await tagsOf(note.id)).toEqual([kept.id, added.id].sort());
    expect((await findNote(t.db, note.id))?.title).toBe('Retagged');
    expect(await tagsOf(untouched.id)).toEqual([kept.id, dropped.id].sort());
    expect((await me.browser.post(`/notes/${note.id}/edit/`, { title: 'Untagged' })).statusCode).toBe(302);
    expect(await tagsOf(note.id)).toEqual([]);
  });

  it('an edit that keeps a note’s tags changes the note alone: the owner’s view version moves once, not once per link written again', async () => {
    const tags = [await createTag(t.db, me.user), await createTag(t.db, me.user)];
    const note = await createNote(t.db, me.user, { title: 'Same tags', tags });
    const version = async () => (await t.db.selectFrom('users').select('view_version').where('id', '=', me.user.id).executeTakeFirstOrThrow()).view_version;
    const before = await version();
    const response = await me.browser.post(`/notes/${note.id}/edit/`, { title: 'Same tags, new words', content: 'Edited', tags: tags.map((tag) => tag.id) });
    expect(response.statusCode).toBe(302);
    expect((await findNote(t.db, note.id))?.content).toBe('Edited');
    expect(await version()).toBe(before + 1);
  });

  it('fills the edit form with the note as stored, its tags ticked', async () => {
    const notebook = await createNotebook(t.db, me.user, { title: 'Chosen book' });
    const [ticked, unticked] = [await createTag(t.db, me.user), await createTag(t.db, me.user)];
    const note = await createNote(t.db, me.user, { title: 'Prefilled', content: 'Body text', notebook_id: notebook.id, priority: 2, is_pinned: 1, tags: [ticked!] });
    const body = (await me.browser.get(`/notes/${note.id}/edit/`)).body;
    expect(body).toContain('value="Prefilled"');
    expect(body).toContain('>Body text</textarea>');
    expect(body).toContain(`<option value="${notebook.id}" selected>Chosen book</option>`);
    expect(body).toContain('<option value="2" selected>High</option>');
    expect(body).toMatch(/id="id_is_pinned" name="is_pinned" value="on" checked/);
    expect(body).toContain(`value="${ticked!.id}" checked`);
    expect(body).not.toContain(`value="${unticked!.id}" checked`);
  });

  it('offers only the caller’s own notebooks, tags and groups in the form', async () => {
    const mine = await createNotebook(t.db, me.user, { title: 'My own book' });
    const theirs = await createNotebook(t.db, other, { title: 'Their secret book' });
    const theirTag = await createTag(t.db, other, { name: 'their-secret-tag' });
    const page = await me.browser.get('/notes/new/');
    expect(page.body).toContain(`<option value="${mine.id}">My own book</option>`);
    expect(page.body).not.toContain(theirs.title);
    expect(page.body).not.toContain(theirTag.name);
  });
});

describe('bad input', () => {
  it.each([
    [{ title: '' }, 'title'],
    [{ title: '   ' }, 'title'],
    [{ title: 'x'.repeat(201) }, 'title'],
    [{ title: 'ok', content: 'y'.repeat(100_001) }, 'content'],
    [{ title: 'ok', priority: '4' }, 'priority'],
    [{ title: 'ok', priority: 'high' }, 'priority'],
    [{ title: 'ok', notebook: 'abc' }, 'notebook'],
    [{ title: 'ok', group: '-1' }, 'group'],
    [{ title: 'ok', tags: ['1x'] }, 'tags'],
    [{ title: 'ok', notebook: '99999999999999999999' }, 'notebook'],
  ])('%j is a 400 with the error next to %s, and nothing is stored', async (form, field) => {
    const before = await countNotes(me.user.id);
    const response = await me.browser.post('/notes/new/', form);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(`id="id_${field}_errors"`);
    expect(await countNotes(me.user.id)).toBe(before);
  });

  it('accepts the limits exactly: 200-character title, 100,000-character content', async () => {
    const response = await me.browser.post('/notes/new/', { title: 't'.repeat(200), content: 'c'.repeat(100_000) });
    expect(response.statusCode).toBe(302);
  });

  it.each(['/notes/abc/', '/notes/0/', '/notes/-1/', '/notes/1.5/', '/notes/99999999999/', '/notes/abc/edit/', '/notes/abc/delete/'])(
    'answers GET %s with 404',
    async (path) => {
      expect((await me.browser.get(path)).statusCode).toBe(404);
    },
  );

  it.each(['/notes/abc/pin/', '/notes/99999999999/delete/', '/notes/2147483648/edit/'])('answers POST %s with 404', async (path) => {
    expect((await me.browser.post(path, { title: 'x' })).statusCode).toBe(404);
  });

  it.each(['?page=abc', '?page=0', '?page=99', '?tag=abc', '?notebook=x', '?tag=99999999', '?notebook=99999999999'])(
    'answers /notes/%s with 404',
    async (query) => {
      expect((await me.browser.get(`/notes/${query}`)).statusCode).toBe(404);
    },
  );

  it('answers a filter on someone else’s notebook or tag with 404', async () => {
    const theirs = await createNotebook(t.db, other);
    const theirTag = await createTag(t.db, other);
    expect((await me.browser.get(`/notes/?notebook=${theirs.id}`)).statusCode).toBe(404);
    expect((await me.browser.get(`/notes/?tag=${theirTag.id}`)).statusCode).toBe(404);
  });

  it('refuses a POST without the CSRF token', async () => {
    const before = await countNotes(me.user.id);
    expect((await me.browser.post('/notes/new/', { title: 'no token' }, { csrf: false })).statusCode).toBe(403);
    expect(await countNotes(me.user.id)).toBe(before);
  });
});

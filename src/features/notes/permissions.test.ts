import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, Note, User } from '../../db/schema.js';
import { buildTestApp, createGroup, createNote, findNote, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

// Who may do what with a note: the owner reads and changes; a member of the note's group reads only;
// anyone else gets the same 404 as for a note that does not exist.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let member: { user: User; browser: TestBrowser };
let stranger: { user: User; browser: TestBrowser };
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  member = await loggedIn(t);
  stranger = await loggedIn(t);
  group = await createGroup(t.db, owner.user, [member.user]);
});
afterAll(() => t.close());

const groupNote = (overrides: Partial<Note> = {}) => createNote(t.db, owner.user, { group_id: group.id, ...overrides });
/** The CSRF token is masked afresh on every page; everything else must be identical. */
const withoutToken = (body: string) => body.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, '');
const editForm = { title: 'Changed title', content: 'changed', priority: '2' };

describe('owner', () => {
  it('lists, reads, creates, edits, pins and deletes their note', async () => {
    const list = await owner.browser.get('/notes/');
    expect(list.statusCode).toBe(200);

    const created = await owner.browser.post('/notes/new/', { title: 'Shopping plan', content: 'Buy **milk**', priority: '1' });
    expect(created.statusCode).toBe(302);
    const id = Number(/^\/notes\/(\d+)\/$/.exec(created.headers.location as string)?.[1]);
    const stored = await findNote(t.db, id);
    expect(stored).toMatchObject({ owner_id: owner.user.id, title: 'Shopping plan', content: 'Buy **milk**', priority: 1, is_pinned: 0 });

    const page = await owner.browser.get(`/notes/${id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<strong>milk</strong>');
    expect(page.body).toContain(`action="/notes/${id}/pin/"`);
    expect(page.body).toContain(`href="/notes/${id}/edit/"`);

    expect((await owner.browser.get(`/notes/${id}/edit/`)).statusCode).toBe(200);
    const edited = await owner.browser.post(`/notes/${id}/edit/`, editForm);
    expect(edited.statusCode).toBe(302);
    expect(edited.headers.location).toBe(`/notes/${id}/`);
    expect(await findNote(t.db, id)).toMatchObject({ title: 'Changed title', content: 'changed', priority: 2 });

    expect((await owner.browser.post(`/notes/${id}/pin/`)).statusCode).toBe(302);
    expect((await findNote(t.db, id))?.is_pinned).toBe(1);
    await owner.browser.post(`/notes/${id}/pin/`);
    expect((await findNote(t.db, id))?.is_pinned).toBe(0);

    const confirm = await owner.browser.get(`/notes/${id}/delete/`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(`action="/notes/${id}/delete/"`);
    expect(await findNote(t.db, id)).toBeDefined();
    const deleted = await owner.browser.post(`/notes/${id}/delete/`);
    expect(deleted.statusCode).toBe(302);
    expect(deleted.headers.location).toBe('/notes/');
    expect(await findNote(t.db, id)).toBeUndefined();
  });

  it('can share a note with their own group when creating it', async () => {
    const created = await owner.browser.post('/notes/new/', { title: 'For the team', group: String(group.id) });
    expect(created.statusCode).toBe(302);
    const id = Number(/(\d+)/.exec(created.headers.location as string)?.[1]);
    expect((await findNote(t.db, id))?.group_id).toBe(group.id);
  });
});

describe('group member', () => {
  it('reads a group note, with its group and owner shown, and no change buttons', async () => {
    const note = await groupNote({ title: 'Team agenda' });
    const page = await member.browser.get(`/notes/${note.id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Team agenda');
    expect(page.body).toContain(`Group: <a href="/groups/${group.id}/">${group.name}</a>`);
    expect(page.body).toContain(`Written by ${owner.user.username}`);
    expect(page.body).not.toContain(`/notes/${note.id}/edit/`);
    expect(page.body).not.toContain(`/notes/${note.id}/pin/`);
    expect(page.body).not.toContain(`/notes/${note.id}/delete/`);
  });

  it('sees the group note in the list, without edit or pin buttons', async () => {
    const note = await groupNote({ title: 'Listed for the team' });
    const list = await member.browser.get('/notes/');
    expect(list.body).toContain(`href="/notes/${note.id}/"`);
    expect(list.body).toContain(`By ${owner.user.username}`);
    expect(list.body).not.toContain(`/notes/${note.id}/edit/`);
    expect(list.body).not.toContain(`/notes/${note.id}/pin/`);
  });

  it('gets 404 for edit, delete and pin, and the note is unchanged', async () => {
    const note = await groupNote({ title: 'Do not touch' });
    const before = await findNote(t.db, note.id);
    expect((await member.browser.get(`/notes/${note.id}/edit/`)).statusCode).toBe(404);
    expect((await member.browser.post(`/notes/${note.id}/edit/`, editForm)).statusCode).toBe(404);
    expect((await member.browser.get(`/notes/${note.id}/delete/`)).statusCode).toBe(404);
    expect((await member.browser.post(`/notes/${note.id}/delete/`)).statusCode).toBe(404);
    expect((await member.browser.post(`/notes/${note.id}/pin/`)).statusCode).toBe(404);
    expect(await findNote(t.db, note.id)).toEqual(before);
  });

  it('loses sight of the note when the group is deleted; the owner keeps it, without a group', async () => {
    const other = await loggedIn(t);
    const team = await createGroup(t.db, owner.user, [other.user]);
    const note = await createNote(t.db, owner.user, { group_id: team.id });
    await t.db.deleteFrom('groups').where('id', '=', team.id).execute();
    expect((await other.browser.get(`/notes/${note.id}/`)).statusCode).toBe(404);
    expect(await findNote(t.db, note.id)).toMatchObject({ owner_id: owner.user.id, group_id: null });
    expect((await owner.browser.get(`/notes/${note.id}/`)).statusCode).toBe(200);
  });

  it('loses sight of the note when it leaves the group', async () => {
    const other = await loggedIn(t);
    const team = await createGroup(t.db, owner.user, [other.user]);
    const note = await createNote(t.db, owner.user, { group_id: team.id });
    expect((await other.browser.get(`/notes/${note.id}/`)).statusCode).toBe(200);
    await t.db.deleteFrom('group_members').where('group_id', '=', team.id).where('user_id', '=', other.user.id).execute();
    expect((await other.browser.get(`/notes/${note.id}/`)).statusCode).toBe(404);
  });
});

describe('stranger', () => {
  it('gets the same 404 as for a missing note on every verb, and nothing changes', async () => {
    const note = await groupNote({ title: 'Private to the group' });
    const before = await findNote(t.db, note.id);
    const missing = await stranger.browser.get('/notes/999999/');
    expect(missing.statusCode).toBe(404);
    for (const path of [`/notes/${note.id}/`, `/notes/${note.id}/edit/`, `/notes/${note.id}/delete/`]) {
      const response = await stranger.browser.get(path);
      expect(response.statusCode).toBe(404);
      expect(withoutToken(response.body)).toBe(withoutToken(missing.body));
    }
    for (const path of [`/notes/${note.id}/edit/`, `/notes/${note.id}/delete/`, `/notes/${note.id}/pin/`]) {
      expect((await stranger.browser.post(path, editForm)).statusCode).toBe(404);
    }
    expect(await findNote(t.db, note.id)).toEqual(before);
    expect((await stranger.browser.get('/notes/')).body).not.toContain(`href="/notes/${note.id}/"`);
  });

  it('cannot read a private note of the owner either', async () => {
    const note = await createNote(t.db, owner.user, { title: 'Diary' });
    expect((await stranger.browser.get(`/notes/${note.id}/`)).statusCode).toBe(404);
    expect((await member.browser.get(`/notes/${note.id}/`)).statusCode).toBe(404);
  });
});

describe('the list shows exactly the visible notes', () => {
  it('for owner, member and stranger', async () => {
    const a = await loggedIn(t);
    const b = await loggedIn(t);
    const c = await loggedIn(t);
    const team = await createGroup(t.db, a.user, [b.user]);
    const aPrivate = await createNote(t.db, a.user);
    const aShared = await createNote(t.db, a.user, { group_id: team.id });
    const bShared = await createNote(t.db, b.user, { group_id: team.id });
    const bPrivate = await createNote(t.db, b.user);
    const cPrivate = await createNote(t.db, c.user);
    const ids = async (browser: TestBrowser) =>
      [...(await browser.get('/notes/')).body.matchAll(/<h2 class="note-title"><a href="\/notes\/(\d+)\/">/g)].map((m) => Number(m[1])).sort();
    const sorted = (...notes: Note[]) => notes.map((note) => note.id).sort();
    expect(await ids(a.browser)).toEqual(sorted(aPrivate, aShared, bShared));
    expect(await ids(b.browser)).toEqual(sorted(aShared, bShared, bPrivate));
    expect(await ids(c.browser)).toEqual(sorted(cPrivate));
  });

  it('sends an anonymous caller to the login page', async () => {
    const response = await t.app.inject({ url: '/notes/', headers: { host: 'localhost' } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/login/?next=%2Fnotes%2F');
  });
});

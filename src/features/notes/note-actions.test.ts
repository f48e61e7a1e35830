import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../db/schema.js';
import { buildTestApp, createGroup, createNote, createNotebook, createTag, findNote, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

// What a note's page and form do in everyday use: an edit lands on the note, "New note" preselects
// where it came from, "Pinned by", one-click archive.

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

const selectedOptions = (body: string) => [...body.matchAll(/<option value="(\d*)" selected/g)].map((m) => m[1]);
const tickedTags = (body: string) => [...body.matchAll(/name="tags" value="(\d+)" checked/g)].map((m) => Number(m[1]));

describe('saving an edit', () => {
  it('lands on the note’s own page', async () => {
    const note = await createNote(t.db, owner.user, { title: 'Before' });
    const response = await owner.browser.post(`/notes/${note.id}/edit/`, { title: 'After', content: 'x', priority: '0' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/notes/${note.id}/`);
  });
});

describe('"New note" preselects the notebook or tag it came from', () => {
  it('from a notebook page and from a list filtered by notebook or tag', async () => {
    const notebook = await createNotebook(t.db, owner.user);
    const tag = await createTag(t.db, owner.user);
    expect((await owner.browser.get(`/notebooks/${notebook.id}/`)).body).toContain(`href="/notes/new/?notebook=${notebook.id}"`);
    expect((await owner.browser.get(`/notes/?tag=${tag.id}`)).body).toContain(`href="/notes/new/?tag=${tag.id}"`);
    expect((await owner.browser.get(`/notes/?notebook=${notebook.id}`)).body).toContain(`href="/notes/new/?notebook=${notebook.id}"`);
    const form = await owner.browser.get(`/notes/new/?notebook=${notebook.id}&tag=${tag.id}`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`<option value="${notebook.id}" selected`);
    expect(tickedTags(form.body)).toEqual([tag.id]);
  });

  it('ignores, silently and alike, another user’s notebook or tag, a missing one and garbage', async () => {
    const theirs = await createNotebook(t.db, stranger.user);
    const theirTag = await createTag(t.db, stranger.user);
    const pages = [];
    for (const query of [`notebook=${theirs.id}&tag=${theirTag.id}`, 'notebook=2000000000&tag=2000000000', 'notebook=abc&tag=-1', 'notebook=99999999999', '']) {
      const response = await owner.browser.get(`/notes/new/?${query}`);
      expect(response.statusCode, query).toBe(200);
      expect(tickedTags(response.body)).toEqual([]);
      pages.push(response.body.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, ''));
    }
    expect(new Set(pages).size).toBe(1);
    expect(selectedOptions(pages[0]!)).not.toContain(String(theirs.id));
  });
});

describe('who pinned a note', () => {
  it('the owner sees "Pinned"; a group member sees "Pinned by <owner>", on the list and the page', async () => {
    const note = await createNote(t.db, owner.user, { title: 'Pinned for all', group_id: group.id, is_pinned: 1 });
    for (const path of ['/notes/', `/notes/${note.id}/`]) {
      expect((await owner.browser.get(path)).body).toMatch(/<li class="badge badge-pinned">Pinned<\/li>/);
      expect((await member.browser.get(path)).body).toContain(`<li class="badge badge-pinned">Pinned by ${owner.user.username}</li>`);
    }
    // Pinning stays the owner's: the member's pin is the 404 of a missing note, and changes nothing.
    expect((await member.browser.post(`/notes/${note.id}/pin/`, {})).statusCode).toBe(404);
    expect((await findNote(t.db, note.id))!.is_pinned).toBe(1);
  });
});

describe('one-click archive', () => {
  it('the owner archives and unarchives from the note page, which shows the actions at the top', async () => {
    const note = await createNote(t.db, owner.user, { title: 'Long one', content: 'para\n\n'.repeat(200), updated_at: 1000 });
    const page = (await owner.browser.get(`/notes/${note.id}/`)).body;
    const actions = page.indexOf('class="actions note-actions"');
    expect(actions).toBeGreaterThan(-1);
    expect(actions).toBeLessThan(page.indexOf('class="markdown"'));
    expect(page).toContain(`action="/notes/${note.id}/archive/"`);
    expect(page).toMatch(new RegExp(`<a href="/notes/${note.id}/delete/" role="button" class="secondary outline small" data-confirm`));

    const archived = await owner.browser.post(`/notes/${note.id}/archive/`, {});
    expect(archived.statusCode).toBe(302);
    expect(archived.headers.location).toBe(`/notes/${note.id}/`);
    expect(await findNote(t.db, note.id)).toMatchObject({ is_archived: 1, updated_at: 1000 });
    expect((await owner.browser.get(`/notes/${note.id}/`)).body).toContain('>Unarchive</button>');
    await owner.browser.post(`/notes/${note.id}/archive/`, {});
    expect((await findNote(t.db, note.id))!.is_archived).toBe(0);
  });

  it('is the 404 of a missing note for a group member and a stranger, changing nothing', async () => {
    const note = await createNote(t.db, owner.user, { group_id: group.id });
    const withoutToken = (body: string) => body.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, '');
    for (const who of [member, stranger]) {
      const missing = await who.browser.post('/notes/2000000000/archive/', {});
      expect(missing.statusCode).toBe(404);
      const response = await who.browser.post(`/notes/${note.id}/archive/`, {});
      expect(response.statusCode).toBe(404);
      expect(withoutToken(response.body)).toBe(withoutToken(missing.body));
    }
    expect((await findNote(t.db, note.id))!.is_archived).toBe(0);
    expect((await member.browser.get(`/notes/${note.id}/`)).body).not.toContain('/archive/');
  });

  it('refuses a POST without the CSRF token', async () => {
    const note = await createNote(t.db, owner.user);
    const response = await owner.browser.post(`/notes/${note.id}/archive/`, {}, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect((await findNote(t.db, note.id))!.is_archived).toBe(0);
  });
});

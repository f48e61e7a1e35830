import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { buildTestApp, createGroup, createNote, createTag, loggedIn, QueryCounter, type TestApp, type TestBrowser } from '../../../test/index.js';

// The list and note pages may be served from the page cache (platform/views/page-cache.ts). Each
// test first has the page shown (and so kept), then changes something and asks again: a page must
// never be older than the database, whoever changed it (this app, or another instance through a
// connection of its own).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function titles(browser: TestBrowser, url = '/notes/'): Promise<string[]> {
  const response = await browser.get(url);
  expect(response.statusCode).toBe(200);
  return [...response.body.matchAll(/<h2 class="note-title"><a href="\/notes\/\d+\/">([^<]*)</g)].map((m) => m[1]!);
}

function csrfTokens(body: string): string[] {
  return [...body.matchAll(/name="csrfmiddlewaretoken" value="([^"]+)"/g)].map((m) => m[1]!);
}

describe('the notes list is never older than the database', () => {
  it('shows changes made on the app’s own connection right after the page was shown', async () => {
    const { user, browser } = await loggedIn(t);
    const first = await createNote(t.db, user, { title: 'first', updated_at: 1_000 });
    expect(await titles(browser)).toEqual(['first']);
    expect(await titles(browser)).toEqual(['first']);
    await createNote(t.db, user, { title: 'second', updated_at: 2_000 });
    expect(await titles(browser)).toEqual(['second', 'first']);
    // Pinning says nothing (no flash message that would bypass the cache): only the list tells.
    expect((await browser.post(`/notes/${first.id}/pin/`)).statusCode).toBe(302);
    expect(await titles(browser)).toEqual(['first', 'second']);
  });

  it('shows a change committed by another connection (another worker, instance or the CLI)', async () => {
    const { user, browser } = await loggedIn(t);
    await createNote(t.db, user, { title: 'mine', updated_at: 1_000 });
    expect(await titles(browser)).toEqual(['mine']);
    const other = openDatabase(t.config.databaseUrl);
    try {
      await createNote(other.db, user, { title: 'from elsewhere', updated_at: 2_000 });
    } finally {
      await other.close();
    }
    expect(await titles(browser)).toEqual(['from elsewhere', 'mine']);
  });

  it('shows a group member’s edit, made by another instance, on the other members’ list and note page', async () => {
    const { user: writer, browser: writerBrowser } = await loggedIn(t);
    const { user: reader, browser } = await loggedIn(t);
    const group = await createGroup(t.db, writer, [reader]);
    const note = await createNote(t.db, writer, { title: 'before', group_id: group.id });
    expect(await titles(browser)).toEqual(['before']);
    expect((await browser.get(`/notes/${note.id}/`)).body).toContain('before');
    const other = openDatabase(t.config.databaseUrl);
    try {
      await other.db.updateTable('notes').set({ title: 'after' }).where('id', '=', note.id).execute();
      expect(await titles(browser)).toEqual(['after']);
      expect((await browser.get(`/notes/${note.id}/`)).body).toContain('after');
      // A group renamed elsewhere shows too; so does a tag renamed, to its owner (tags are theirs alone).
      await other.db.updateTable('groups').set({ name: 'renamed-group' }).where('id', '=', group.id).execute();
      expect((await browser.get('/notes/')).body).toContain('renamed-group');
      expect((await browser.get(`/notes/${note.id}/`)).body).toContain('renamed-group');
      await other.db.updateTable('users').set({ username: 'renamed-writer' }).where('id', '=', writer.id).execute();
      expect((await browser.get(`/notes/${note.id}/`)).body).toContain('Written by renamed-writer');
      const tag = await createTag(other.db, writer, { name: 'old-tag' });
      await other.db.insertInto('note_tags').values({ note_id: note.id, tag_id: tag.id }).execute();
      expect((await writerBrowser.get(`/notes/${note.id}/`)).body).toContain('old-tag');
      await other.db.updateTable('tags').set({ name: 'new-tag' }).where('id', '=', tag.id).execute();
      expect((await writerBrowser.get(`/notes/${note.id}/`)).body).toContain('new-tag');
      expect((await writerBrowser.get('/notes/')).body).toContain('new-tag');
      // Taken out of the group elsewhere: the note page is a 404 at once.
      await other.db.updateTable('notes').set({ group_id: null }).where('id', '=', note.id).execute();
      expect((await browser.get(`/notes/${note.id}/`)).statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('stops showing a group note to a member the moment they leave the group', async () => {
    const { user: owner } = await loggedIn(t);
    const { user: member, browser } = await loggedIn(t);
    const group = await createGroup(t.db, owner, [member]);
    await createNote(t.db, owner, { title: 'group plan', group_id: group.id });
    expect(await titles(browser)).toEqual(['group plan']);
    await t.db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', member.id).execute();
    expect(await titles(browser)).toEqual([]);
  });

  it('keeps each user their own page: a member never gets the owner’s edit links', async () => {
    const { user: owner, browser: ownerBrowser } = await loggedIn(t);
    const { user: member, browser: memberBrowser } = await loggedIn(t);
    const group = await createGroup(t.db, owner, [member]);
    const note = await createNote(t.db, owner, { title: 'shared', group_id: group.id });
    expect((await ownerBrowser.get('/notes/')).body).toContain(`href="/notes/${note.id}/edit/"`);
    const seenByMember = (await memberBrowser.get('/notes/')).body;
    expect(seenByMember).toContain('shared');
    expect(seenByMember).not.toContain(`href="/notes/${note.id}/edit/"`);
    expect(seenByMember).toContain(member.username);
  });
});

describe('what a kept page carries besides the database', () => {
  it('has a fresh CSRF token in every response, and the server accepts it', async () => {
    const { user, browser } = await loggedIn(t);
    const note = await createNote(t.db, user, { title: 'pin me' });
    const first = csrfTokens((await browser.get('/notes/')).body);
    const second = csrfTokens((await browser.get('/notes/')).body);
    expect(new Set(first).size).toBe(1); // one masked token per page, in every form
    expect(second[0]).not.toBe(first[0]);
    const pinned = await browser.post(`/notes/${note.id}/pin/`, {}, { token: second[0]! });
    expect(pinned.statusCode).toBe(302);
    expect((await browser.get('/notes/')).body).toContain('badge-pinned');
  });

  it('shows a flash message once on a page that was kept before it arrived', async () => {
    const { user, browser } = await loggedIn(t);
    await createNote(t.db, user, { title: 'quiet' });
    expect((await browser.get('/notes/')).body).not.toContain('Hello from the test');
    browser.cookies.set('messages', t.app.signCookie(JSON.stringify([{ level: 'info', text: 'Hello from the test' }])));
    expect((await browser.get('/notes/')).body).toContain('Hello from the test');
    expect((await browser.get('/notes/')).body).not.toContain('Hello from the test');
  });

  it('answers a filter naming a notebook that is not the caller’s with 404, kept page or not', async () => {
    const { user, browser } = await loggedIn(t);
    await createNote(t.db, user, { title: 'a' });
    expect((await browser.get('/notes/')).statusCode).toBe(200);
    expect((await browser.get('/notes/?notebook=999999')).statusCode).toBe(404);
    expect((await browser.get('/notes/?notebook=999999')).statusCode).toBe(404);
  });
});

describe('what is kept, and what it saves', () => {
  /** Queries of the first and the second of two identical requests for `url`. */
  async function queriesOfTwoRequests(env: Record<string, string>, url: (noteId: number) => string): Promise<number[]> {
    const counter = new QueryCounter();
    const counted = await buildTestApp(env, counter.observe);
    try {
      const { user, browser } = await loggedIn(counted);
      const note = await createNote(counted.db, user, { title: 'one' });
      const get = async () => expect((await browser.get(url(note.id))).statusCode).toBe(200);
      return [await counter.during(get), await counter.during(get)];
    } finally {
      await counted.close();
    }
  }

  it('answers a kept list with the session’s query alone, and renders it anew with the cache off', async () => {
    expect(await queriesOfTwoRequests({}, () => '/notes/')).toEqual([2, 1]);
    expect(await queriesOfTwoRequests({ PAGE_CACHE_MB: '0' }, () => '/notes/')).toEqual([2, 2]);
  });

  it('keeps a note page under the token read with the note, and answers it with the session’s query alone (the token rides along), without reading the note again', async () => {
    const counter = new QueryCounter();
    const counted = await buildTestApp({}, counter.observe);
    try {
      const { user, browser } = await loggedIn(counted);
      const note = await createNote(counted.db, user, { title: 'one', content: 'the text' });
      const readsContent = async () => {
        const from = counter.returned.length;
        const queries = await counter.during(async () => expect((await browser.get(`/notes/${note.id}/`)).body).toContain('the text'));
        return { queries, readsContent: counter.returned.slice(from).some((columns) => columns.includes('content')) };
      };
      expect(await readsContent()).toEqual({ queries: 2, readsContent: true });
      expect(await readsContent()).toEqual({ queries: 1, readsContent: false });
    } finally {
      await counted.close();
    }
    expect(await queriesOfTwoRequests({ PAGE_CACHE_MB: '0' }, (id) => `/notes/${id}/`)).toEqual([2, 2]);
  });

  it('keeps the pages of a user whose groups nobody wrote to while another user writes', async () => {
    const counter = new QueryCounter();
    const counted = await buildTestApp({}, counter.observe);
    try {
      const { user, browser } = await loggedIn(counted);
      const { user: stranger } = await loggedIn(counted);
      await createNote(counted.db, user, { title: 'mine' });
      expect(await titles(browser)).toEqual(['mine']);
      await createNote(counted.db, stranger, { title: 'theirs' });
      expect(await counter.during(async () => expect(await titles(browser)).toEqual(['mine']))).toBe(1);
    } finally {
      await counted.close();
    }
  });

  it('keeps the pages of a member whose group chats, with the navigation’s new count', async () => {
    const counter = new QueryCounter();
    const counted = await buildTestApp({}, counter.observe);
    try {
      const { user: author } = await loggedIn(counted);
      const { user: reader, browser } = await loggedIn(counted);
      const group = await createGroup(counted.db, author, [reader]);
      const note = await createNote(counted.db, author, { title: 'shared', group_id: group.id });
      const unreadChat = async (url: string) => /<span class="nav-count" aria-hidden="true">(\d+)<\/span>/.exec((await browser.get(url)).body)?.[1];
      expect(await unreadChat('/notes/')).toBeUndefined();
      expect(await unreadChat(`/notes/${note.id}/`)).toBeUndefined();
      for (const content of ['one', 'two']) {
        await counted.db.insertInto('chat_messages').values({ group_id: group.id, author_id: author.id, content, created_at: Date.now() }).execute();
      }
      expect(await counter.during(async () => expect(await unreadChat('/notes/')).toBe('2'))).toBe(1);
      expect(await counter.during(async () => expect(await unreadChat(`/notes/${note.id}/`)).toBe('2'))).toBe(1);
      expect(await counter.during(async () => expect(await titles(browser)).toEqual(['shared']))).toBe(1);
    } finally {
      await counted.close();
    }
  });

  it('keeps a note’s page while another note of its group changes, and drops the group’s list', async () => {
    const counter = new QueryCounter();
    const counted = await buildTestApp({}, counter.observe);
    try {
      const { user: writer } = await loggedIn(counted);
      const { user: reader, browser } = await loggedIn(counted);
      const group = await createGroup(counted.db, writer, [reader]);
      const read = await createNote(counted.db, writer, { title: 'read', group_id: group.id, updated_at: 1_000 });
      const edited = await createNote(counted.db, writer, { title: 'edited', group_id: group.id, updated_at: 2_000 });
      expect(await titles(browser)).toEqual(['edited', 'read']);
      expect((await browser.get(`/notes/${read.id}/`)).body).toContain('read');
      await counted.db.updateTable('notes').set({ title: 'changed', updated_at: 3_000 }).where('id', '=', edited.id).execute();
      expect(await counter.during(async () => expect((await browser.get(`/notes/${read.id}/`)).statusCode).toBe(200))).toBe(1);
      expect(await counter.during(async () => expect(await titles(browser)).toEqual(['changed', 'read']))).toBe(2);
    } finally {
      await counted.close();
    }
  });
});

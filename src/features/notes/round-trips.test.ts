import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Note, User } from '../../db/schema.js';
import { ApiClient, buildTestApp, createGroup, createNote, createNotebook, createTag, createToken, createUser, findNote, loggedIn, QueryCounter, type TestApp, type TestBrowser } from '../../../test/index.js';

// Each statement is a round trip to the database (over the network on PostgreSQL), one after
// the other. These tests pin how many a page makes, the session's included, with nothing kept
// (PAGE_CACHE_MB=0), so that a change adding one fails here.

let t: TestApp;
let browser: TestBrowser;
let groupNote: Note;
let ownNote: Note;
let me: User;
const counter = new QueryCounter();

beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' }, counter.observe);
  const reader = await loggedIn(t);
  me = reader.user;
  browser = reader.browser;
  const [f1, f2] = [await createUser(t.db), await createUser(t.db)];
  const [g1, g2] = [await createGroup(t.db, f1, [reader.user]), await createGroup(t.db, f2, [reader.user])];
  const [mine, theirs] = [await createTag(t.db, reader.user, { name: 'mine-tag' }), await createTag(t.db, f1, { name: 'their-tag' })];
  for (let i = 0; i < 12; i += 1) {
    await createNote(t.db, reader.user, { tags: [mine], group_id: i % 2 === 0 ? g1.id : null });
    await createNote(t.db, f1, { tags: [theirs], group_id: g1.id });
    await createNote(t.db, f2, { group_id: g2.id });
  }
  ownNote = await createNote(t.db, reader.user, { tags: [mine], group_id: g2.id, title: 'My own tagged note' });
  groupNote = await createNote(t.db, f1, { tags: [theirs], group_id: g1.id, title: 'Shared with the group' });
});
afterAll(() => t.close());

describe('round trips per page', () => {
  it('a /notes/ page of a member of two groups, tags shown, takes two queries: the session with the caller’s groups, the page with its details and tags', async () => {
    await browser.get('/notes/');
    let body = '';
    const queries = await counter.during(async () => {
      const response = await browser.get('/notes/');
      expect(response.statusCode).toBe(200);
      body = response.body;
    });
    expect(body).toContain('Shared with the group');
    expect(body).toContain('mine-tag');
    expect(queries).toBe(2);
  });

  it('the API\'s list takes two queries, on a token as on the session cookie: the caller with their groups, then the page with its details and tags', async () => {
    const token = new ApiClient(t.app, { token: await createToken(t.db, me, 'read') });
    // The token's first use records it (last_used_at, once a minute): not a read of the list.
    expect((await token.get('/api/v1/notes/')).statusCode).toBe(200);
    // The default limit (the page's size: its statement is built once) and another (built each time).
    for (const [get, shown] of [[() => token.get('/api/v1/notes/'), 38], [() => browser.get('/api/v1/notes/?limit=5'), 5]] as const) {
      let body = '';
      const queries = await counter.during(async () => {
        const response = await get();
        expect(response.statusCode).toBe(200);
        body = response.body;
      });
      expect(JSON.parse(body).results).toHaveLength(shown);
      expect(queries).toBe(2);
    }
  });

  it('a search page takes three queries: session, the matching page with its details and tags, and the count of archived matches', async () => {
    await browser.get('/notes/?q=own+tagged');
    let body = '';
    const queries = await counter.during(async () => {
      const response = await browser.get('/notes/?q=own+tagged');
      expect(response.statusCode).toBe(200);
      body = response.body;
    });
    expect(body).toContain('My own tagged note');
    expect(body).toContain('mine-tag');
    expect(queries).toBe(3);
  });

  it('a note page takes two queries: session, the note with its details and tags (own note or a group\'s)', async () => {
    for (const [note, shown] of [[ownNote, 'mine-tag'], [groupNote, 'Shared with the group']] as const) {
      let body = '';
      const queries = await counter.during(async () => {
        const response = await browser.get(`/notes/${note.id}/`);
        expect(response.statusCode).toBe(200);
        body = response.body;
      });
      expect(body).toContain(shown);
      expect(queries).toBe(2);
    }
  });

  it('a note the caller may not see is the same 404 in as many queries', async () => {
    const stranger = await createUser(t.db);
    const hidden = await createNote(t.db, stranger);
    const queries = await counter.during(async () => {
      expect((await browser.get(`/notes/${hidden.id}/`)).statusCode).toBe(404);
    });
    const missing = await counter.during(async () => {
      expect((await browser.get('/notes/987654321/')).statusCode).toBe(404);
    });
    // The session, the note, then whether the caller may be told it was deleted (a tombstone).
    expect(queries).toBe(3);
    expect(missing).toBe(queries);
  });

  it('an edit of a note in a group takes two queries on PostgreSQL: session, then the note and the form’s choices checked in the statement that changes it, with its tags and sharing', async () => {
    const [notebook, tag] = [await createNotebook(t.db, me), await createTag(t.db, me, { name: 'edited-tag' })];
    const form = { title: 'Edited', content: 'changed', notebook: String(notebook.id), tags: [String(tag.id)], group: String(ownNote.group_id), priority: '1' };
    const queries = await counter.during(async () => {
      const response = await browser.post(`/notes/${ownNote.id}/edit/`, form);
      expect(response.statusCode).toBe(302);
    });
    expect(await findNote(t.db, ownNote.id)).toMatchObject({ title: 'Edited', notebook_id: notebook.id, group_id: ownNote.group_id });
    // SQLite runs the checks and the change as one transaction of statements in this process: read
    // the group before, update, unlink and link the tags. No round trip leaves the process.
    expect(queries).toBe(t.database.dialect === 'postgres' ? 2 : 6);
  });

  it('an edit of someone else’s note is a 404 after the same check, and changes nothing', async () => {
    const form = { title: 'Taken over', group: '', priority: '0' };
    const queries = await counter.during(async () => {
      expect((await browser.post(`/notes/${groupNote.id}/edit/`, form)).statusCode).toBe(404);
    });
    expect(queries).toBe(2);
    expect(await findNote(t.db, groupNote.id)).toMatchObject({ title: 'Shared with the group' });
  });
});

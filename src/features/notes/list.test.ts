import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createGroup, createNote, createNotebook, createTag, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** Note ids in the order the list shows them. */
async function listed(browser: TestBrowser, url = '/notes/'): Promise<number[]> {
  const response = await browser.get(url);
  expect(response.statusCode).toBe(200);
  return [...response.body.matchAll(/<h2 class="note-title"><a href="\/notes\/(\d+)\/">/g)].map((m) => Number(m[1]));
}

describe('order', () => {
  it('is pinned first, then priority, then most recently updated, mixing own and group notes', async () => {
    const { user, browser } = await loggedIn(t);
    const friend = (await loggedIn(t)).user;
    const group = await createGroup(t.db, friend, [user]);
    const old = await createNote(t.db, user, { updated_at: 1_000 });
    const recent = await createNote(t.db, friend, { group_id: group.id, updated_at: 5_000 });
    const urgent = await createNote(t.db, user, { priority: 3, updated_at: 2_000 });
    const pinned = await createNote(t.db, friend, { group_id: group.id, is_pinned: 1, updated_at: 500 });
    const pinnedHigh = await createNote(t.db, user, { is_pinned: 1, priority: 2, updated_at: 400 });
    expect(await listed(browser)).toEqual([pinnedHigh.id, pinned.id, urgent.id, recent.id, old.id]);
  });

  it('shows a group note the user owns once, not once per way of seeing it', async () => {
    const { user, browser } = await loggedIn(t);
    const group = await createGroup(t.db, user);
    const note = await createNote(t.db, user, { group_id: group.id });
    expect(await listed(browser)).toEqual([note.id]);
  });
});

describe('pages of 50', () => {
  it('splits 120 notes from three sources into pages with previous and next links', async () => {
    const { user, browser } = await loggedIn(t);
    const [f1, f2] = [(await loggedIn(t)).user, (await loggedIn(t)).user];
    const [g1, g2] = [await createGroup(t.db, f1, [user]), await createGroup(t.db, f2, [user])];
    const expected: number[] = [];
    for (let i = 0; i < 120; i += 1) {
      const owner = [user, f1, f2][i % 3]!;
      const group = [null, g1.id, g2.id][i % 3]!;
      expected.push((await createNote(t.db, owner, { group_id: group, updated_at: 1_000_000 - i })).id);
    }
    const first = await browser.get('/notes/');
    expect(first.body).toContain('href="/notes/?page=2"');
    expect(first.body).not.toContain('rel="prev"');
    const all = [...(await listed(browser)), ...(await listed(browser, '/notes/?page=2')), ...(await listed(browser, '/notes/?page=3'))];
    expect(all).toEqual(expected);
    const last = await browser.get('/notes/?page=3');
    expect(last.body).toContain('href="/notes/?page=2"');
    expect(last.body).not.toContain('rel="next"');
    expect((await browser.get('/notes/?page=4')).statusCode).toBe(404);
  });
});

describe('filters', () => {
  it('?archived=1 shows only archived notes, and the main list hides them', async () => {
    const { user, browser } = await loggedIn(t);
    const current = await createNote(t.db, user);
    const archived = await createNote(t.db, user, { is_archived: 1 });
    expect(await listed(browser)).toEqual([current.id]);
    expect(await listed(browser, '/notes/?archived=1')).toEqual([archived.id]);
  });

  it('?notebook= and ?tag= show the caller’s notes in that notebook or with that tag', async () => {
    const { user, browser } = await loggedIn(t);
    const notebook = await createNotebook(t.db, user);
    const tag = await createTag(t.db, user);
    const inBook = await createNote(t.db, user, { notebook_id: notebook.id });
    const tagged = await createNote(t.db, user, { tags: [tag] });
    await createNote(t.db, user);
    expect(await listed(browser, `/notes/?notebook=${notebook.id}`)).toEqual([inBook.id]);
    expect(await listed(browser, `/notes/?tag=${tag.id}`)).toEqual([tagged.id]);
  });

  it('shows the empty state with a next step', async () => {
    const { browser } = await loggedIn(t);
    const page = await browser.get('/notes/');
    expect(page.body).toContain('No notes yet: <a href="/notes/new/">create your first note</a>');
  });
});

describe('rows', () => {
  it('show title, a plain-text excerpt, notebook, tags, group and badges', async () => {
    const { user, browser } = await loggedIn(t);
    const group = await createGroup(t.db, user, [], 'Book club');
    const notebook = await createNotebook(t.db, user, { title: 'Reading', color: '#112233' });
    const tag = await createTag(t.db, user, { name: 'novels', color: '#445566' });
    await createNote(t.db, user, {
      title: 'Next book', content: '# Heading\n\nRead **Dune** by [Herbert](https://example.com)', notebook_id: notebook.id,
      group_id: group.id, priority: 2, is_pinned: 1, tags: [tag],
    });
    const body = (await browser.get('/notes/')).body;
    expect(body).toContain('<p class="note-excerpt">Heading\nRead Dune by Herbert</p>');
    expect(body).toContain('Reading</a>');
    expect(body).toContain('fill="#112233"');
    expect(body).toContain('novels</a>');
    expect(body).toContain('fill="#445566"');
    expect(body).toContain(`Group: <a href="/groups/${group.id}/">Book club</a>`);
    expect(body).toContain('>Pinned</li>');
    expect(body).toContain('High priority');
  });

  it('hide the owner’s notebook and tags from group members', async () => {
    const owner = await loggedIn(t);
    const member = await loggedIn(t);
    const group = await createGroup(t.db, owner.user, [member.user]);
    const notebook = await createNotebook(t.db, owner.user, { title: 'Owner private book' });
    const tag = await createTag(t.db, owner.user, { name: 'owner-private-tag' });
    const note = await createNote(t.db, owner.user, { title: 'Shared plan', group_id: group.id, notebook_id: notebook.id, tags: [tag] });
    for (const path of ['/notes/', `/notes/${note.id}/`]) {
      const body = (await member.browser.get(path)).body;
      expect(body).toContain(note.title);
      expect(body).not.toContain('Owner private book');
      expect(body).not.toContain('owner-private-tag');
    }
  });
});

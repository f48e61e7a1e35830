import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../db/schema.js';
import { buildTestApp, createGroup, createNote, createTag, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

// Search says how many archived notes match too, keeps the tag and notebook filters,
// and matches the caller's own tag names. Runs on SQLite (FTS5) and PostgreSQL (tsvector).

let t: TestApp;
let me: { user: User; browser: TestBrowser };
let friend: { user: User; browser: TestBrowser };
let stranger: { user: User; browser: TestBrowser };
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  me = await loggedIn(t);
  friend = await loggedIn(t);
  stranger = await loggedIn(t);
  group = await createGroup(t.db, friend.user, [me.user]);
});
afterAll(() => t.close());

const ids = (body: string) => [...body.matchAll(/<h2 class="note-title"><a href="\/notes\/(\d+)\/">/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
async function found(path: string, browser = me.browser): Promise<{ ids: number[]; body: string }> {
  const response = await browser.get(path);
  expect(response.statusCode, path).toBe(200);
  return { ids: ids(response.body), body: response.body };
}

describe('archived matches', () => {
  it('are counted under the results, with a link to the same search among archived notes', async () => {
    const current = await createNote(t.db, me.user, { title: 'Zanzibar trip' });
    const old = [await createNote(t.db, me.user, { title: 'Zanzibar 2019', is_archived: 1 }), await createNote(t.db, friend.user, { title: 'Zanzibar map', group_id: group.id, is_archived: 1 })];
    await createNote(t.db, stranger.user, { title: 'Zanzibar secret', is_archived: 1 });
    const page = await found('/notes/?q=zanzibar');
    expect(page.ids).toEqual([current.id]);
    expect(page.body).toContain('2 archived notes also match. <a href="/notes/?q=zanzibar&amp;archived=1">Search archived notes</a>');
    const archived = await found('/notes/?q=zanzibar&archived=1');
    expect(archived.ids).toEqual(old.map((note) => note.id));
    expect(archived.body).toContain('1 current note also matches.');
    // The stranger sees only their own archived match.
    expect((await found('/notes/?q=zanzibar', stranger.browser)).body).toContain('1 archived note also matches.');
  });

  it('are counted up to 20: with more, the line says "20 or more"', async () => {
    await createNote(t.db, me.user, { title: 'Wombat now' });
    for (let i = 0; i < 20; i += 1) await createNote(t.db, me.user, { title: `Wombat ${i}`, is_archived: 1 });
    expect((await found('/notes/?q=wombat')).body).toContain('20 archived notes also match.');
    await createNote(t.db, me.user, { title: 'Wombat 20', is_archived: 1 });
    expect((await found('/notes/?q=wombat')).body).toContain('20 or more archived notes also match.');
  });

  it('say nothing when there are none, and nothing without a search', async () => {
    await createNote(t.db, me.user, { title: 'Quagga', is_archived: 0 });
    expect((await found('/notes/?q=quagga')).body).not.toContain('also match');
    expect((await found('/notes/')).body).not.toContain('also match');
  });
});

describe('the filters of a search', () => {
  it('are kept by the search form as hidden fields and shown as chips that remove them', async () => {
    const tag = await createTag(t.db, me.user, { name: 'Garden' });
    const tagged = await createNote(t.db, me.user, { title: 'Tomato seeds', tags: [tag] });
    await createNote(t.db, me.user, { title: 'Tomato soup' });
    const list = await found(`/notes/?tag=${tag.id}`);
    expect(list.body).toContain(`<input type="hidden" name="tag" value="${tag.id}"/>`);
    expect(list.body).toMatch(/<a class="tag-chip" href="\/notes\/">tagged “Garden”/);
    const search = await found(`/notes/?q=tomato&tag=${tag.id}`);
    expect(search.ids).toEqual([tagged.id]);
    expect(search.body).toMatch(/<a class="tag-chip" href="\/notes\/\?q=tomato">tagged “Garden”/);
  });
});

describe('tag names', () => {
  it('match the caller’s own notes carrying the tag, once, alongside text matches', async () => {
    const tag = await createTag(t.db, me.user, { name: 'Wolpertinger lore' });
    const byTag = await createNote(t.db, me.user, { title: 'Bavarian creatures', tags: [tag] });
    const both = await createNote(t.db, me.user, { title: 'Wolpertinger sighting', tags: [tag] });
    const byText = await createNote(t.db, me.user, { title: 'A wolpertinger?' });
    expect((await found('/notes/?q=wolperting')).ids).toEqual([byTag.id, both.id, byText.id]);
    expect((await found('/notes/?q=wolpertinger%20lore')).ids).toEqual([byTag.id, both.id]);
  });

  it('of other users never match: neither a stranger’s nor a group note’s owner’s (their tags stay theirs)', async () => {
    const strangerTag = await createTag(t.db, stranger.user, { name: 'Axolotl' });
    const strangers = await createNote(t.db, stranger.user, { title: 'Pets', tags: [strangerTag] });
    const friendTag = await createTag(t.db, friend.user, { name: 'Axolotl care' });
    const shared = await createNote(t.db, friend.user, { title: 'Tank', group_id: group.id, tags: [friendTag] });
    expect((await found('/notes/?q=axolotl')).ids).toEqual([]);
    // The owners find their own notes by their own tags.
    expect((await found('/notes/?q=axolotl', stranger.browser)).ids).toEqual([strangers.id]);
    expect((await found('/notes/?q=axolotl', friend.browser)).ids).toEqual([shared.id]);
  });

  it('count among archived notes too', async () => {
    const tag = await createTag(t.db, me.user, { name: 'Okapi' });
    await createNote(t.db, me.user, { title: 'Old zoo visit', is_archived: 1, tags: [tag] });
    expect((await found('/notes/?q=okapi')).body).toContain('1 archived note also matches.');
  });
});

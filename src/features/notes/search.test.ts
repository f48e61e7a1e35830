import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../db/schema.js';
import { searchWords, wordToken } from '../../db/search-words.js';
import { buildTestApp, createGroup, createNote, createTag, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';
import { RECENT_WINDOW, fts5Query, searchTerms, tsQuery } from './search.js';

// Runs on SQLite (FTS5) and, with DATABASE_URL=postgres://..., on PostgreSQL (tsvector + GIN).

let t: TestApp;
let me: { user: User; browser: TestBrowser };
let friend: User;
let stranger: User;
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  me = await loggedIn(t);
  friend = (await loggedIn(t)).user;
  stranger = (await loggedIn(t)).user;
  group = await createGroup(t.db, friend, [me.user]);
});
afterAll(() => t.close());

async function found(query: string, browser = me.browser): Promise<number[]> {
  const response = await browser.get(`/notes/?q=${encodeURIComponent(query)}`);
  expect(response.statusCode).toBe(200);
  return [...response.body.matchAll(/<h2 class="note-title"><a href="\/notes\/(\d+)\/">/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
}

describe('full-text search', () => {
  it('finds words in titles and content of visible notes only', async () => {
    const own = await createNote(t.db, me.user, { title: 'Aubergine recipes', content: 'roast them' });
    const shared = await createNote(t.db, friend, { group_id: group.id, title: 'Market', content: 'cheap aubergine today' });
    await createNote(t.db, friend, { title: 'Private aubergine stash' });
    await createNote(t.db, stranger, { title: 'Aubergine secrets', content: 'aubergine aubergine' });
    expect(await found('aubergine')).toEqual([own.id, shared.id]);
  });

  it('requires every word, matches prefixes and ignores case', async () => {
    const both = await createNote(t.db, me.user, { title: 'Quokka island', content: 'Rottnest ferry times' });
    await createNote(t.db, me.user, { title: 'Quokka facts', content: 'marsupial' });
    expect(await found('QUOKKA ferry')).toEqual([both.id]);
    expect(await found('rottn')).toEqual([both.id]);
  });

  it('lists matches newest first, from titles and content alike', async () => {
    const older = await createNote(t.db, me.user, { title: 'Misc', content: 'something about zephyrine winds' });
    const newer = await createNote(t.db, friend, { group_id: group.id, title: 'Zephyrine', content: 'a word' });
    const body = (await me.browser.get('/notes/?q=zephyrine')).body;
    expect(body.indexOf(`/notes/${newer.id}/`)).toBeGreaterThan(-1);
    expect(body.indexOf(`/notes/${newer.id}/`)).toBeLessThan(body.indexOf(`/notes/${older.id}/`));
  });

  it('pages through many matches without repeating or skipping one', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 60; i += 1) ids.push((await createNote(t.db, i % 2 ? me.user : friend, { title: `Kumquat ${i}`, group_id: i % 2 ? null : group.id })).id);
    const first = await found('kumquat');
    const page2 = await me.browser.get('/notes/?q=kumquat&page=2');
    const secondIds = [...page2.body.matchAll(/<h2 class="note-title"><a href="\/notes\/(\d+)\/">/g)].map((m) => Number(m[1]));
    expect(first).toHaveLength(50);
    expect([...first, ...secondIds].sort((a, b) => a - b)).toEqual(ids);
    expect((await me.browser.get('/notes/?q=kumquat')).body).toContain('href="/notes/?q=kumquat&amp;page=2"');
  });

  it('pages in order across the newest notes and older ones (PostgreSQL searches the newest RECENT_WINDOW first)', async () => {
    const oldest = await createNote(t.db, me.user, { title: 'Ocelot from long ago' });
    const now = Date.now();
    const filler = Array.from({ length: RECENT_WINDOW }, (_, i) => ({
      owner_id: stranger.id, title: `filler ${i}`, content: 'ocelot', excerpt: 'ocelot', search_words: searchWords(`filler ${i}`, 'ocelot'), created_at: now, updated_at: now,
    }));
    for (let start = 0; start < filler.length; start += 1000) await t.db.insertInto('notes').values(filler.slice(start, start + 1000)).execute();
    const recent: number[] = [];
    for (let i = 0; i < 60; i += 1) recent.push((await createNote(t.db, me.user, { title: `Ocelot ${i}` })).id);
    const ids = async (page: number) => [...(await me.browser.get(`/notes/?q=ocelot&page=${page}`)).body.matchAll(/<h2 class="note-title"><a href="\/notes\/(\d+)\/">/g)].map((m) => Number(m[1]));
    const newestFirst = [...recent].reverse();
    expect(await ids(1)).toEqual(newestFirst.slice(0, 50));
    expect(await ids(2)).toEqual([...newestFirst.slice(50), oldest.id]);
  });

  it('keeps the tag and archive filters', async () => {
    const tag = await createTag(t.db, me.user);
    const tagged = await createNote(t.db, me.user, { title: 'Walrus tagged', tags: [tag] });
    await createNote(t.db, me.user, { title: 'Walrus plain' });
    const archived = await createNote(t.db, me.user, { title: 'Walrus old', is_archived: 1 });
    expect(await found('walrus')).toHaveLength(2);
    const tagPage = await me.browser.get(`/notes/?q=walrus&tag=${tag.id}`);
    expect(tagPage.body).toContain(`/notes/${tagged.id}/`);
    expect(tagPage.body).not.toContain('Walrus plain');
    const archivePage = await me.browser.get('/notes/?q=walrus&archived=1');
    expect(archivePage.body).toContain(`/notes/${archived.id}/`);
    expect(archivePage.body).not.toContain('Walrus plain');
  });

  it('follows edits and deletes (the index is kept in step)', async () => {
    const note = await createNote(t.db, me.user, { title: 'Platypus' });
    expect(await found('platypus')).toEqual([note.id]);
    await me.browser.post(`/notes/${note.id}/edit/`, { title: 'Echidna' });
    expect(await found('platypus')).toEqual([]);
    expect(await found('echidna')).toEqual([note.id]);
    await me.browser.post(`/notes/${note.id}/delete/`);
    expect(await found('echidna')).toEqual([]);
  });

  it.each(['"', 'aubergine"', 'NEAR(a b)', 'title:aubergine', '*', 'a AND', '(', "'; drop table notes; --", '!&|:*', '^aubergine', '-aubergine'])(
    'treats the query %j as plain words, never as syntax (no error, no leak)',
    async (query) => {
      const response = await me.browser.get(`/notes/?q=${encodeURIComponent(query)}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain('Aubergine secrets');
      expect(response.body).not.toContain('Private aubergine stash');
    },
  );

  it('shows a friendly empty state', async () => {
    const body = (await me.browser.get('/notes/?q=nothing-like-this-exists')).body;
    expect(body).toContain('No notes match “nothing-like-this-exists”.');
  });
});

describe('query building', () => {
  it('reduces input to lowercased words, each with its stem, and asks for their tokens only', () => {
    const { text, tags } = searchTerms('Hello, "worlds" NEAR(x) title:y *');
    expect(text).toEqual([
      { word: 'hello', stem: null },
      { word: 'worlds', stem: 'world' },
      { word: 'near', stem: null },
      { word: 'x', stem: null },
      { word: 'title', stem: 'titl' },
      { word: 'y', stem: null },
    ]);
    expect(tags).toEqual(['hello', 'worlds', 'near', 'x', 'title', 'y']);
    const [hello, worlds] = [wordToken('hello'), wordToken('worlds')];
    expect(hello).toBe('gigfgmgmgp');
    expect(fts5Query(text.slice(0, 2))).toBe(`"${hello}"* AND ("${worlds}"* OR "${wordToken('world')}")`);
    expect(tsQuery(text.slice(0, 2))).toBe(`${hello}:* & (${worlds}:* | ${wordToken('world')})`);
    // Tokens are the letters a to p: no quote, operator or space of the query survives.
    expect(fts5Query(searchTerms(`"'; drop table notes; -- !&|:* ^(x)`).text)).toMatch(/^[a-p"*() ANDOR]+$/);
  });
});

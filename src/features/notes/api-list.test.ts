import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, Note, User } from '../../db/schema.js';
import { ApiClient, type ApiResponse, buildTestApp, createGroup, createNote, createNotebook, createTag, createToken, createUser, results, type TestApp } from '../../../test/index.js';

// GET /api/v1/notes/: the notes page's list (its visibility, filters, order and search) as JSON,
// paged by a cursor.

let t: TestApp;
let owner: User;
let member: User;
let stranger: User;
let group: Group;
let api: { owner: ApiClient; member: ApiClient; stranger: ApiClient };

beforeAll(async () => {
  t = await buildTestApp();
  [owner, member, stranger] = [await createUser(t.db), await createUser(t.db), await createUser(t.db)];
  group = await createGroup(t.db, owner, [member]);
  const client = async (user: User) => new ApiClient(t.app, { token: await createToken(t.db, user) });
  api = { owner: await client(owner), member: await client(member), stranger: await client(stranger) };
});
afterAll(() => t.close());

const ids = (response: ApiResponse) => results(response).map((note) => note.id as unknown as number);
const nextPath = (response: ApiResponse) => {
  const next = response.data.next as unknown as string | null;
  return next === null ? null : new URL(next).pathname + new URL(next).search;
};

/** Every page from `path` on, following `next`. */
async function allPages(client: ApiClient, path: string): Promise<ApiResponse[]> {
  const pages: ApiResponse[] = [];
  for (let current: string | null = path; current !== null; current = nextPath(pages.at(-1)!)) {
    const page = await client.get(current);
    expect(page.statusCode, current).toBe(200);
    pages.push(page);
    if (pages.length > 50) throw new Error('next never ends');
  }
  return pages;
}

/** The page's order, worked out here: pinned first, then priority, then most recently updated, then newest. */
const listOrder = (notes: Note[]) =>
  [...notes].sort((a, b) => b.is_pinned - a.is_pinned || b.priority - a.priority || b.updated_at - a.updated_at || b.id - a.id).map((note) => note.id);

describe('the list', () => {
  it('pages through every visible note in the page\'s order with `next`, each note once, for owner and member alike', async () => {
    const base = Date.now() - 1_000_000;
    const notes: Note[] = [];
    for (let i = 0; i < 11; i += 1) {
      // Ties on pinned, priority and updated time, so that the id must break them.
      notes.push(await createNote(t.db, owner, { group_id: i % 2 ? group.id : null, is_pinned: i % 5 === 0 ? 1 : 0, priority: i % 3, updated_at: base + (i % 4) * 1000 }));
    }
    notes.push(await createNote(t.db, member, { group_id: group.id, priority: 3, updated_at: base }));
    await createNote(t.db, stranger, { group_id: null });

    const pages = await allPages(api.owner, '/api/v1/notes/?limit=5');
    expect(pages.map((page) => results(page).length)).toEqual([5, 5, 2]);
    expect(pages.flatMap(ids)).toEqual(listOrder(notes));
    expect(pages.at(-1)!.data.next).toBeNull();
    expect(nextPath(pages[0]!)).toMatch(/^\/api\/v1\/notes\/\?limit=5&cursor=/);

    // The member sees the group's notes and their own, not the owner's private ones.
    const seen = (await allPages(api.member, '/api/v1/notes/?limit=4')).flatMap(ids);
    expect(seen).toEqual(listOrder(notes.filter((note) => note.group_id === group.id)));
    const strangers = (await allPages(api.stranger, '/api/v1/notes/')).flatMap(ids);
    expect(strangers).toHaveLength(1);
    expect(notes.map((note) => note.id)).not.toContain(strangers[0]);
  });

  it('shows a group’s notes from the next request after the caller joins it, and none after they leave (the groups come with the token, never kept)', async () => {
    const [joiner, friend] = [await createUser(t.db), await createUser(t.db)];
    const client = new ApiClient(t.app, { token: await createToken(t.db, joiner) });
    const own = await createNote(t.db, joiner);
    const club = await createGroup(t.db, friend);
    const shared = await createNote(t.db, friend, { group_id: club.id });
    expect(ids(await client.get('/api/v1/notes/'))).toEqual([own.id]);
    // As another instance or the CLI would: straight in the database.
    await t.db.insertInto('group_members').values({ group_id: club.id, user_id: joiner.id, joined_at: Date.now() }).execute();
    expect(ids(await client.get('/api/v1/notes/'))).toEqual(listOrder([own, shared]));
    await t.db.deleteFrom('group_members').where('group_id', '=', club.id).where('user_id', '=', joiner.id).execute();
    expect(ids(await client.get('/api/v1/notes/'))).toEqual([own.id]);
  });

  it('gives each note once across pages even when notes are added between them', async () => {
    const user = await createUser(t.db);
    const client = new ApiClient(t.app, { token: await createToken(t.db, user) });
    const first = [await createNote(t.db, user), await createNote(t.db, user), await createNote(t.db, user)];
    const page1 = await client.get('/api/v1/notes/?limit=2');
    const added = await createNote(t.db, user, { updated_at: Date.now() + 60_000 });
    const page2 = await client.get(nextPath(page1)!);
    expect([...ids(page1), ...ids(page2)].sort()).toEqual(first.map((note) => note.id).sort());
    expect(ids(page2)).not.toContain(added.id);
  });

  it('filters by the caller\'s notebook, tag and archived state; someone else\'s notebook or tag is a 404 as on the page', async () => {
    const [notebook, tag] = [await createNotebook(t.db, owner), await createTag(t.db, owner)];
    const inNotebook = await createNote(t.db, owner, { notebook_id: notebook.id });
    const tagged = await createNote(t.db, owner, { tags: [tag] });
    const archived = await createNote(t.db, owner, { is_archived: 1, notebook_id: notebook.id });
    expect(ids(await api.owner.get(`/api/v1/notes/?notebook=${notebook.id}`))).toEqual([inNotebook.id]);
    expect(ids(await api.owner.get(`/api/v1/notes/?notebook=${notebook.id}&archived=true`))).toEqual([archived.id]);
    expect(ids(await api.owner.get(`/api/v1/notes/?tag=${tag.id}`))).toEqual([tagged.id]);
    const archive = (await allPages(api.owner, '/api/v1/notes/?archived=1')).flatMap(ids);
    expect(archive).toEqual([archived.id]);
    expect((await allPages(api.owner, '/api/v1/notes/?archived=false')).flatMap(ids)).not.toContain(archived.id);

    for (const path of [`/api/v1/notes/?notebook=${notebook.id}`, `/api/v1/notes/?tag=${tag.id}`]) {
      const hidden = await api.member.get(path);
      expect(hidden.statusCode, path).toBe(404);
      expect(hidden.body).toBe((await api.member.get(path.replace(/=\d+$/, '=2000000000'))).body);
    }
  });

  it('answers 400 to query strings and cursors that are not its own', async () => {
    const search = await api.owner.get('/api/v1/notes/?q=note&limit=1');
    const list = await api.owner.get('/api/v1/notes/?limit=1');
    const searchCursor = new URL(search.data.next as unknown as string).searchParams.get('cursor')!;
    const listCursor = new URL(list.data.next as unknown as string).searchParams.get('cursor')!;
    const forged = Buffer.from(JSON.stringify([1, 9, 0, 1])).toString('base64url');
    for (const [query, field] of [
      ['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=ten', 'limit'], ['archived=maybe', 'archived'], ['tag=abc', 'tag'], ['notebook=-1', 'notebook'],
      ['q=' + 'x'.repeat(201), 'q'], ['cursor=!!', 'cursor'], [`cursor=${forged}`, 'cursor'], [`cursor=${'A'.repeat(600)}`, 'cursor'],
      [`q=note&cursor=${listCursor}`, 'cursor'], [`cursor=${searchCursor}`, 'cursor'], ['page=2', '__all__'],
    ] as const) {
      const response = await api.owner.get(`/api/v1/notes/?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(Object.keys(response.data.error?.fields ?? {}), query).toContain(field);
    }
  });

  it('answers 304 to If-None-Match while the page is unchanged', async () => {
    const first = await api.member.get('/api/v1/notes/?limit=3');
    const again = await api.member.get('/api/v1/notes/?limit=3', { headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    await createNote(t.db, owner, { group_id: group.id, is_pinned: 1, priority: 3 });
    expect((await api.member.get('/api/v1/notes/?limit=3', { headers: { 'if-none-match': first.headers.etag as string } })).statusCode).toBe(200);
  });
});

describe('search (q)', () => {
  it('finds visible notes holding every word, newest first, paged by `next`, with the filters', async () => {
    const tag = await createTag(t.db, owner);
    const matches: Note[] = [];
    for (let i = 0; i < 5; i += 1) matches.push(await createNote(t.db, owner, { title: `Quokka ${i}`, content: 'zebrafish habitat', group_id: i % 2 ? group.id : null, tags: i < 2 ? [tag] : [] }));
    await createNote(t.db, owner, { title: 'Quokka only' });
    await createNote(t.db, stranger, { title: 'Quokka zebrafish of a stranger' });
    await createNote(t.db, owner, { title: 'Quokka archived', content: 'zebrafish', is_archived: 1 });

    const pages = await allPages(api.owner, '/api/v1/notes/?q=quok%20ZEBRA&limit=2');
    expect(pages.map((page) => results(page).length)).toEqual([2, 2, 1]);
    const newestFirst = matches.map((note) => note.id).sort((a, b) => b - a);
    expect(pages.flatMap(ids)).toEqual(newestFirst);
    expect(results(pages[0]!)[0]).toMatchObject({ content: 'zebrafish habitat', owner: owner.username });
    expect(nextPath(pages[0]!)).toContain('q=quok+ZEBRA');

    expect((await allPages(api.member, '/api/v1/notes/?q=zebrafish')).flatMap(ids)).toEqual(newestFirst.filter((id) => matches.find((note) => note.id === id)!.group_id !== null));
    expect((await allPages(api.stranger, '/api/v1/notes/?q=quokka zebrafish')).flatMap(ids)).not.toContain(matches[0]!.id);
    expect(ids(await api.owner.get(`/api/v1/notes/?q=zebrafish&tag=${tag.id}`))).toEqual([matches[1]!.id, matches[0]!.id]);
    expect(results(await api.owner.get('/api/v1/notes/?q=zebrafish&archived=true')).map((note) => note.title)).toEqual(['Quokka archived']);
    // Query syntax is only a separator: no error, no match.
    const syntax = await api.owner.get('/api/v1/notes/?q=%22%20OR%20*%20NEAR(%3A');
    expect(syntax.statusCode).toBe(200);
    expect(syntax.data).toEqual({ results: [], next: null });
  });
});

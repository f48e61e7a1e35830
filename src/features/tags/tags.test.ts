import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createNote, createTag, findNote, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let other: { user: User; browser: TestBrowser };
beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  other = await loggedIn(t);
});
afterAll(() => t.close());

const findTag = (id: number) => t.db.selectFrom('tags').selectAll().where('id', '=', id).executeTakeFirst();
const tagCount = async (ownerId: number) => (await t.db.selectFrom('tags').select('id').where('owner_id', '=', ownerId).execute()).length;

describe('owner', () => {
  it('creates, lists, edits and deletes a tag; deleting unlinks it from notes, which stay', async () => {
    const created = await owner.browser.post('/tags/new/', { name: 'urgent-ish', color: '#FF0000' });
    expect(created.statusCode).toBe(302);
    expect(created.headers.location).toBe('/tags/');
    const tag = await t.db.selectFrom('tags').selectAll().where('owner_id', '=', owner.user.id).where('name', '=', 'urgent-ish').executeTakeFirstOrThrow();
    expect(tag.color).toBe('#ff0000');
    const note = await createNote(t.db, owner.user, { tags: [tag] });

    const list = await owner.browser.get('/tags/');
    expect(list.body).toContain(`href="/notes/?tag=${tag.id}"`);
    expect((await owner.browser.get(`/tags/${tag.id}/edit/`)).statusCode).toBe(200);
    expect((await owner.browser.post(`/tags/${tag.id}/edit/`, { name: 'later', color: '#00ff00' })).statusCode).toBe(302);
    expect(await findTag(tag.id)).toMatchObject({ name: 'later', color: '#00ff00' });

    expect((await owner.browser.get(`/tags/${tag.id}/delete/`)).body).toContain(`action="/tags/${tag.id}/delete/"`);
    const deleted = await owner.browser.post(`/tags/${tag.id}/delete/`);
    expect(deleted.statusCode).toBe(302);
    expect(deleted.headers.location).toBe('/tags/');
    expect(await findTag(tag.id)).toBeUndefined();
    expect(await findNote(t.db, note.id)).toBeDefined();
    expect(await t.db.selectFrom('note_tags').selectAll().where('note_id', '=', note.id).execute()).toEqual([]);
  });

  it('refuses a second tag of the same name in any case, but another user may use the name', async () => {
    await createTag(t.db, owner.user, { name: 'Travel' });
    const before = await tagCount(owner.user.id);
    const response = await owner.browser.post('/tags/new/', { name: 'travel', color: '#123456' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('You already have a tag with this name.');
    expect(await tagCount(owner.user.id)).toBe(before);
    expect((await other.browser.post('/tags/new/', { name: 'travel' })).statusCode).toBe(302);
  });

  it('refuses Été beside été, and Ｔｒｉｐ beside trip, whatever the letters’ case or width', async () => {
    expect((await owner.browser.post('/tags/new/', { name: 'été' })).statusCode).toBe(302);
    expect((await owner.browser.post('/tags/new/', { name: 'trip' })).statusCode).toBe(302);
    const before = await tagCount(owner.user.id);
    for (const name of ['Été', 'ÉTÉ', 'Ｔｒｉｐ']) {
      const response = await owner.browser.post('/tags/new/', { name });
      expect(response.statusCode, name).toBe(400);
      expect(response.body).toContain('You already have a tag with this name.');
    }
    expect(await tagCount(owner.user.id)).toBe(before);
    expect((await other.browser.post('/tags/new/', { name: 'Été' })).statusCode).toBe(302);
  });

  it('refuses renaming a tag onto another of the owner’s tag names', async () => {
    await createTag(t.db, owner.user, { name: 'alpha' });
    const beta = await createTag(t.db, owner.user, { name: 'beta' });
    expect((await owner.browser.post(`/tags/${beta.id}/edit/`, { name: 'ALPHA' })).statusCode).toBe(400);
    expect((await findTag(beta.id))?.name).toBe('beta');
    expect((await owner.browser.post(`/tags/${beta.id}/edit/`, { name: 'Beta' })).statusCode).toBe(302);
  });
});

describe('anyone else', () => {
  it('gets 404 on every tag path, and the tag is unchanged', async () => {
    const tag = await createTag(t.db, owner.user, { name: 'owner-only' });
    for (const path of [`/tags/${tag.id}/edit/`, `/tags/${tag.id}/delete/`]) expect((await other.browser.get(path)).statusCode).toBe(404);
    expect((await other.browser.post(`/tags/${tag.id}/edit/`, { name: 'mine now' })).statusCode).toBe(404);
    expect((await other.browser.post(`/tags/${tag.id}/delete/`)).statusCode).toBe(404);
    expect(await findTag(tag.id)).toEqual(tag);
    expect((await other.browser.get('/tags/')).body).not.toContain('owner-only');
  });
});

describe('bad input', () => {
  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'n'.repeat(51) }, 'name'],
    [{ name: 'ok', color: 'blue' }, 'color'],
    [{ name: 'ok', color: '#abc' }, 'color'],
  ])('%j is a 400 with the error next to %s, and nothing is stored', async (form, field) => {
    const before = await tagCount(owner.user.id);
    const response = await owner.browser.post('/tags/new/', form);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(`id="id_${field}_errors"`);
    expect(await tagCount(owner.user.id)).toBe(before);
  });

  it.each(['/tags/abc/edit/', '/tags/0/delete/', '/tags/99999999999/edit/'])('GET %s is a 404', async (path) => {
    expect((await owner.browser.get(path)).statusCode).toBe(404);
  });
});

describe('the tags page', () => {
  it('says how many notes carry each tag, in the page’s language', async () => {
    const { user, browser } = await loggedIn(t);
    const soup = await createTag(t.db, user, { name: 'soup' });
    const unused = await createTag(t.db, user, { name: 'unused' });
    await createNote(t.db, user, { title: 'Borscht', tags: [soup] });
    await createNote(t.db, user, { title: 'Shchi', tags: [soup] });
    const row = (body: string, id: number) => body.slice(body.indexOf(`href="/notes/?tag=${id}"`)).split('</li>')[0]!;
    const page = (await browser.get('/tags/')).body;
    expect(row(page, soup.id)).toContain('<small>2 notes</small>');
    expect(row(page, unused.id)).toContain('<small>0 notes</small>');
    const ukrainian = (await browser.get('/tags/', { headers: { 'accept-language': 'uk' } })).body;
    expect(row(ukrainian, soup.id)).toContain('<small>2 нотатки</small>');
  });
});

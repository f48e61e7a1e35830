import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createNote, createNotebook, findNote, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let other: { user: User; browser: TestBrowser };
beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  other = await loggedIn(t);
});
afterAll(() => t.close());

const findNotebook = (id: number) => t.db.selectFrom('notebooks').selectAll().where('id', '=', id).executeTakeFirst();

describe('owner', () => {
  it('creates, lists, reads, edits and deletes a notebook; its notes stay without a notebook', async () => {
    const created = await owner.browser.post('/notebooks/new/', { title: 'Recipes', description: 'Family favourites', color: '#AA3300' });
    expect(created.statusCode).toBe(302);
    const id = Number(/^\/notebooks\/(\d+)\/$/.exec(created.headers.location as string)?.[1]);
    expect(await findNotebook(id)).toMatchObject({ owner_id: owner.user.id, title: 'Recipes', description: 'Family favourites', color: '#aa3300' });
    const note = await createNote(t.db, owner.user, { title: 'Pancakes', notebook_id: id });

    const list = await owner.browser.get('/notebooks/');
    expect(list.body).toContain('Recipes</a>');
    expect(list.body).toContain('1 note');
    const page = await owner.browser.get(`/notebooks/${id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Family favourites');
    expect(page.body).toContain(`href="/notes/${note.id}/"`);

    expect((await owner.browser.get(`/notebooks/${id}/edit/`)).statusCode).toBe(200);
    const edited = await owner.browser.post(`/notebooks/${id}/edit/`, { title: 'Cooking', description: '', color: '#00ff00' });
    expect(edited.statusCode).toBe(302);
    expect(edited.headers.location).toBe('/notebooks/');
    expect(await findNotebook(id)).toMatchObject({ title: 'Cooking', description: '', color: '#00ff00' });

    const confirm = await owner.browser.get(`/notebooks/${id}/delete/`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(`action="/notebooks/${id}/delete/"`);
    const deleted = await owner.browser.post(`/notebooks/${id}/delete/`);
    expect(deleted.statusCode).toBe(302);
    expect(deleted.headers.location).toBe('/notebooks/');
    expect(await findNotebook(id)).toBeUndefined();
    expect(await findNote(t.db, note.id)).toMatchObject({ title: 'Pancakes', notebook_id: null });
  });

  it('shows an empty state with a next step', async () => {
    const fresh = await loggedIn(t);
    expect((await fresh.browser.get('/notebooks/')).body).toContain('<a href="/notebooks/new/">create your first notebook</a>');
  });
});

describe('anyone else', () => {
  it('gets 404 on every notebook path, and the notebook is unchanged', async () => {
    const notebook = await createNotebook(t.db, owner.user, { title: 'Mine alone' });
    for (const path of [`/notebooks/${notebook.id}/`, `/notebooks/${notebook.id}/edit/`, `/notebooks/${notebook.id}/delete/`]) {
      expect((await other.browser.get(path)).statusCode).toBe(404);
    }
    expect((await other.browser.post(`/notebooks/${notebook.id}/edit/`, { title: 'Taken', color: '#000000' })).statusCode).toBe(404);
    expect((await other.browser.post(`/notebooks/${notebook.id}/delete/`)).statusCode).toBe(404);
    expect(await findNotebook(notebook.id)).toEqual(notebook);
    expect((await other.browser.get('/notebooks/')).body).not.toContain('Mine alone');
  });
});

describe('bad input', () => {
  it.each([
    [{ title: '', color: '#000000' }, 'title'],
    [{ title: 'x'.repeat(201), color: '#000000' }, 'title'],
    [{ title: 'ok', color: 'red' }, 'color'],
    [{ title: 'ok', color: '#12345' }, 'color'],
    [{ title: 'ok', color: '#1234567' }, 'color'],
    [{ title: 'ok', color: '#gggggg' }, 'color'],
    [{ title: 'ok', description: 'd'.repeat(2001) }, 'description'],
  ])('%j is a 400 with the error next to %s, and nothing is stored', async (form, field) => {
    const before = await t.db.selectFrom('notebooks').select('id').where('owner_id', '=', owner.user.id).execute();
    const response = await owner.browser.post('/notebooks/new/', form);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(`id="id_${field}_errors"`);
    expect(await t.db.selectFrom('notebooks').select('id').where('owner_id', '=', owner.user.id).execute()).toEqual(before);
  });

  it.each(['/notebooks/abc/', '/notebooks/0/edit/', '/notebooks/99999999999/delete/'])('GET %s is a 404', async (path) => {
    expect((await owner.browser.get(path)).statusCode).toBe(404);
  });
});

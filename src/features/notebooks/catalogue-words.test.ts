import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notebook, User } from '../../db/schema.js';
import { buildTestApp, createNote, createNotebook, expectAllWrapped, loggedIn, type TestApp, type TestBrowser, useMarkedMessages } from '../../../test/index.js';

// The notebooks pages: every word a person reads comes from the catalogue.

let t: TestApp;
let me: { user: User; browser: TestBrowser };
let notebook: Notebook;
let content: string[];

beforeAll(async () => {
  useMarkedMessages();
  t = await buildTestApp();
  me = await loggedIn(t);
  notebook = await createNotebook(t.db, me.user, { title: '⟦Recipes⟧', description: '⟦Family favourites⟧' });
  await createNotebook(t.db, me.user, { title: '⟦Empty⟧' });
  await createNote(t.db, me.user, { title: '⟦Soup⟧', content: '⟦Boil⟧', notebook_id: notebook.id });
  content = [me.user.username, 'UTC'];
});
afterAll(() => t.close());

describe('every notebooks page in the test language', () => {
  it('the list, a notebook with notes and one without, the forms and the delete confirmation', async () => {
    const empty = await t.db.selectFrom('notebooks').select('id').where('title', '=', '⟦Empty⟧').executeTakeFirstOrThrow();
    for (const url of ['/notebooks/', `/notebooks/${notebook.id}/`, `/notebooks/${empty.id}/`, '/notebooks/new/', `/notebooks/${notebook.id}/edit/`, `/notebooks/${notebook.id}/delete/`]) {
      const response = await me.browser.get(url);
      expect(response.statusCode).toBe(200);
      expectAllWrapped(url, response.body, content);
    }
  });

  it('the form shown again with its errors (empty, taken), and the flash message after a save', async () => {
    for (const title of ['', '⟦Recipes⟧', '!!!']) {
      const invalid = await me.browser.post('/notebooks/new/', { title, description: 'x'.repeat(2001) });
      expect(invalid.statusCode).toBe(400);
      expectAllWrapped(`/notebooks/new/ (${title})`, invalid.body, [...content, 'x'.repeat(2001)]);
    }
    const saved = await me.browser.post(`/notebooks/${notebook.id}/edit/`, { title: '⟦Recipes⟧', description: '', color: '#aa3300' });
    expect(saved.statusCode).toBe(302);
    const page = await me.browser.get(saved.headers.location as string);
    expect(page.body).toContain('⟦Notebook “⟦Recipes⟧” saved.⟧');
    expectAllWrapped('after a save', page.body, content);
  });

  it('counts notes in Ukrainian plural forms', async () => {
    const reader = await loggedIn(t);
    const [one, few, many] = [await createNotebook(t.db, reader.user, { title: 'A' }), await createNotebook(t.db, reader.user, { title: 'B' }), await createNotebook(t.db, reader.user, { title: 'C' })];
    const fill = async (id: number, n: number) => {
      for (let i = 0; i < n; i += 1) await createNote(t.db, reader.user, { notebook_id: id });
    };
    await fill(one.id, 1);
    await fill(few.id, 3);
    await fill(many.id, 5);
    const page = await reader.browser.get('/notebooks/', { headers: { 'accept-language': 'uk' } });
    for (const count of ['1 нотатка', '3 нотатки', '5 нотаток']) expect(page.body).toContain(`⟦${count}⟧`);
  });
});

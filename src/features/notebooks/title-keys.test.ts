import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { ApiClient, buildTestApp, createNotebook, createToken, createUser, dumpFiles, loggedIn, makeZip, type TestApp, type TestBrowser, upload } from '../../../test/index.js';
import { importDjango } from '../django-import/import.js';

// Notebook titles are unique per owner once folded (migration 0021), as tag names are.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
});
afterAll(() => t.close());

const titles = async (user: User) => (await t.db.selectFrom('notebooks').select('title').where('owner_id', '=', user.id).orderBy('id').execute()).map((row) => row.title);
const dumpFile = dumpFiles();
const TAKEN = (title: string) => `You already have a notebook named “${title}”.`;

describe('the notebook form', () => {
  it('refuses a title the owner has in another case or width with a 400 naming it, storing nothing; another owner may use it', async () => {
    const [me, them] = [await loggedIn(t), await loggedIn(t)];
    expect((await me.browser.post('/notebooks/new/', { title: 'Recipes' })).statusCode).toBe(302);
    for (const title of ['recipes', 'ＲＥＣＩＰＥＳ', ' RECIPES ']) {
      const response = await me.browser.post('/notebooks/new/', { title });
      expect(response.statusCode, title).toBe(400);
      expect(response.body).toContain(TAKEN(title.trim()));
      expect(response.body).toContain('aria-invalid="true"');
    }
    expect(await titles(me.user)).toEqual(['Recipes']);
    expect((await them.browser.post('/notebooks/new/', { title: 'recipes' })).statusCode).toBe(302);
  });

  it('refuses a rename onto another of the owner’s titles, and allows changing the case of its own', async () => {
    const first = await createNotebook(t.db, owner.user, { title: 'Garden' });
    const second = await createNotebook(t.db, owner.user, { title: 'Kitchen' });
    const refused = await owner.browser.post(`/notebooks/${second.id}/edit/`, { title: 'GARDEN' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(TAKEN('GARDEN'));
    expect((await owner.browser.post(`/notebooks/${first.id}/edit/`, { title: 'GARDEN' })).statusCode).toBe(302);
    expect((await t.db.selectFrom('notebooks').select('title').where('id', '=', second.id).executeTakeFirstOrThrow()).title).toBe('Kitchen');
  });

  it('refuses a title that shows no letter', async () => {
    const response = await owner.browser.post('/notebooks/new/', { title: '\u200b\u200b' });
    expect(response.statusCode).toBe(400);
  });

  it('lets only one of two simultaneous saves of one title through (the unique index decides)', async () => {
    const { user, browser } = await loggedIn(t);
    const responses = await Promise.all(['Travel', 'TRAVEL', 'travel'].map((title) => browser.post('/notebooks/new/', { title })));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([302, 400, 400]);
    expect(await titles(user)).toHaveLength(1);
  });
});

describe('the API', () => {
  it('answers a taken title with the form’s 400 on title, for a create and a rename', async () => {
    const user = await createUser(t.db);
    const api = new ApiClient(t.app, { token: await createToken(t.db, user, 'write') });
    expect((await api.post('/api/v1/notebooks/', { title: 'Books' })).statusCode).toBe(201);
    const again = await api.post('/api/v1/notebooks/', { title: 'BOOKS' });
    expect(again.statusCode).toBe(400);
    expect(JSON.stringify(again.data)).toContain(TAKEN('BOOKS'));
    const films = await api.post('/api/v1/notebooks/', { title: 'Films' });
    const renamed = await api.request('PATCH', `/api/v1/notebooks/${(films.data as unknown as { id: number }).id}/`, { body: { title: 'books' } });
    expect(renamed.statusCode).toBe(400);
    expect(await titles(user)).toEqual(['Books', 'Films']);
  });
});

describe('imports bringing a notebook whose title differs only in case', () => {
  it('my-data: files its notes in the notebook the user already has', async () => {
    const { user, browser } = await loggedIn(t);
    await createNotebook(t.db, user, { title: 'Recipes' });
    const zip = await makeZip({ 'RECIPES/soup.md': '# Soup\n\nSimmer.', 'recipes/bread.md': '# Bread' });
    expect((await upload(t.app, browser, '/accounts/import/', zip)).statusCode).toBe(302);
    expect(await titles(user)).toEqual(['Recipes']);
    const filed = await t.db.selectFrom('notes').innerJoin('notebooks', 'notebooks.id', 'notes.notebook_id').select('notebooks.title').where('notes.owner_id', '=', user.id).execute();
    expect(filed.map((row) => row.title)).toEqual(['Recipes', 'Recipes']);
  });

  it('django-import: keeps the second as "recipes (2)", with its notes', async () => {
    const entries = [
      { model: 'auth.user', pk: 901, fields: { username: 'nb_folded', password: 'pbkdf2_sha256$1000$salt$AAAA', email: '', date_joined: '2024-01-01T00:00:00Z', groups: [] } },
      { model: 'notes_app.notebook', pk: 910, fields: { user: 901, title: 'Recipes', created_at: '2024-01-01T00:00:00Z' } },
      { model: 'notes_app.notebook', pk: 911, fields: { user: 901, title: 'recipes', created_at: '2024-01-01T00:00:00Z' } },
      { model: 'notes_app.note', pk: 920, fields: { user: 901, title: 'Soup', notebook: 911, created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00Z' } },
    ];
    const empty = await buildTestApp(); // import-django loads into an empty database only
    try {
      await importDjango(empty.db, empty.database.dialect, dumpFile(entries));
      expect(await empty.db.selectFrom('notebooks').select(['id', 'title', 'title_key']).where('owner_id', '=', 901).orderBy('id').execute()).toEqual([
      { id: 910, title: 'Recipes', title_key: 'recipes' },
      { id: 911, title: 'recipes (2)', title_key: 'recipes (2)' },
    ]);
      expect((await empty.db.selectFrom('notes').select('notebook_id').where('id', '=', 920).executeTakeFirstOrThrow()).notebook_id).toBe(911);
    } finally {
      await empty.close();
    }
  });
});

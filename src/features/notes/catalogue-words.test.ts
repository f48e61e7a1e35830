import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, Note, Notebook, Tag, User } from '../../db/schema.js';
import { ApiClient, buildTestApp, createGroup, createNote, createNotebook, createReminder, createTag, createToken, expectAllWrapped, loggedIn, type TestApp, type TestBrowser, useMarkedMessages } from '../../../test/index.js';

// The notes pages: every word a person reads comes from the catalogue.
// User content (titles, tag and notebook names, usernames, zones) is wrapped here or named.

let t: TestApp;
let me: { user: User; browser: TestBrowser };
let friend: { user: User; browser: TestBrowser };
let group: Group;
let notebook: Notebook;
let tag: Tag;
let mine: Note;
let shared: Note;
let content: string[];

beforeAll(async () => {
  useMarkedMessages();
  t = await buildTestApp();
  me = await loggedIn(t);
  friend = await loggedIn(t);
  group = await createGroup(t.db, me.user, [friend.user], '⟦Family⟧');
  notebook = await createNotebook(t.db, me.user, { title: '⟦Recipes⟧', description: '⟦Family favourites⟧' });
  tag = await createTag(t.db, me.user, { name: '⟦soup⟧' });
  mine = await createNote(t.db, me.user, { title: '⟦Soup⟧', content: '⟦Boil the water⟧', notebook_id: notebook.id, tags: [tag], priority: 2, is_pinned: 1 });
  shared = await createNote(t.db, friend.user, { title: '⟦Shared plan⟧', content: '⟦Meet at noon⟧', group_id: group.id, is_pinned: 1, priority: 3 });
  await createNote(t.db, me.user, { title: '⟦Old soup⟧', content: '⟦Cold⟧', is_archived: 1 });
  await createReminder(t.db, mine, { message: '⟦Buy onions⟧', repeat: 'weekly' });
  content = [me.user.username, friend.user.username, 'UTC'];
});
afterAll(() => t.close());

async function expectPage(url: string, status = 200) {
  const response = await me.browser.get(url);
  expect(response.statusCode).toBe(status);
  expectAllWrapped(url, response.body, content);
}

describe('every notes page in the test language', () => {
  it('the list: plain, archived, filtered by notebook and tag, a search with results and with none', async () => {
    for (const url of ['/notes/', '/notes/?archived=1', `/notes/?notebook=${notebook.id}`, `/notes/?tag=${tag.id}`, '/notes/?q=soup', `/notes/?q=soup&tag=${tag.id}&notebook=${notebook.id}`, '/notes/?q=nothinglikethis']) {
      await expectPage(url);
    }
  });

  it('the pager, on the second page of a long list', async () => {
    const writer = await loggedIn(t);
    for (let i = 0; i < 60; i += 1) await createNote(t.db, writer.user, { title: `⟦Note ${i}⟧`, content: '⟦text⟧' });
    const page = await writer.browser.get('/notes/?page=2');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('rel="prev"');
    expectAllWrapped('/notes/?page=2', page.body, [writer.user.username, 'UTC']);
  });

  it('a filtered list with no notes in it', async () => {
    const empty = await createTag(t.db, me.user, { name: '⟦empty⟧' });
    await expectPage(`/notes/?tag=${empty.id}`);
  });

  it('the note page (the owner’s, with reminders; a group member’s), the new and edit forms', async () => {
    await expectPage(`/notes/${mine.id}/`);
    await expectPage(`/notes/${shared.id}/`);
    await expectPage('/notes/new/');
    await expectPage(`/notes/${mine.id}/edit/`);
    await expectPage(`/notes/${mine.id}/delete/`);
  });

  it('a form shown again with its errors, and the reminder form with its errors', async () => {
    const invalid = await me.browser.post('/notes/new/', { title: '', priority: '9' });
    expect(invalid.statusCode).toBe(400);
    expectAllWrapped('/notes/new/ (errors)', invalid.body, content);
    const long = await me.browser.post(`/notes/${mine.id}/edit/`, { title: 'x'.repeat(201) });
    expect(long.statusCode).toBe(400);
    expectAllWrapped('/notes/:id/edit/ (errors)', long.body, content);
    for (const remind_at of ['', 'not a time', '2001-01-01T09:00']) {
      const reminder = await me.browser.post(`/notes/${mine.id}/reminders/add/`, { remind_at, repeat: 'none' });
      expect(reminder.statusCode).toBe(400);
      expectAllWrapped(`reminder form (${remind_at})`, reminder.body, content);
    }
  });

  it('the reminder’s delete confirmation, and the flash message after a save', async () => {
    const [reminder] = await t.db.selectFrom('reminders').select('id').where('note_id', '=', mine.id).execute();
    await expectPage(`/reminders/${reminder!.id}/delete/`);
    const saved = await me.browser.post(`/notes/${mine.id}/edit/`, { title: '⟦Soup⟧', content: '⟦Boil the water⟧', notebook: String(notebook.id), tags: String(tag.id), priority: '2', is_pinned: 'on' });
    expect(saved.statusCode).toBe(302);
    const page = await me.browser.get(saved.headers.location as string);
    expect(page.body).toContain('⟦Note saved.⟧');
    expectAllWrapped('after a save', page.body, content);
  });
});

describe('the notes pages in Ukrainian', () => {
  const uk = { headers: { 'accept-language': 'uk' } };

  it('the list in Ukrainian, counting in Ukrainian plural forms', async () => {
    const reader = await loggedIn(t);
    for (let i = 0; i < 3; i += 1) await createNote(t.db, reader.user, { title: `Квасоля ${i}`, is_archived: 1 });
    await createNote(t.db, reader.user, { title: 'Квасоля сьогодні' });
    const page = await reader.browser.get('/notes/?q=квасоля', uk);
    expect(page.body).toContain('<html lang="uk">');
    expect(page.body).toContain('Пошук: квасоля');
    expect(page.body).toContain('Ще 3 архівні нотатки відповідають пошуку.');
    for (let i = 3; i < 5; i += 1) await createNote(t.db, reader.user, { title: `Квасоля ${i}`, is_archived: 1 });
    expect((await reader.browser.get('/notes/?q=квасоля', uk)).body).toContain('Ще 5 архівних нотаток відповідають пошуку.');
    const archived = await reader.browser.get('/notes/?q=квасоля&archived=1', uk);
    expect(archived.body).toContain('Ще 1 поточна нотатка відповідає пошуку.');
    expect(archived.body).toContain('Назад до поточних нотаток');
  });

  it('a note form’s errors in Ukrainian', async () => {
    const invalid = await me.browser.post('/notes/new/', { title: '', priority: '9' }, uk);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('Нова нотатка');
    expect(invalid.body).toContain('Це поле обов’язкове.');
    expect(invalid.body).toContain('Виберіть пріоритет від низького до термінового.');
  });

  it('an API error message in Ukrainian with the same English code', async () => {
    const api = new ApiClient(t.app, { token: await createToken(t.db, me.user) });
    const english = await api.post('/api/v1/notebooks/', { title: '⟦Recipes⟧' });
    const ukrainian = await api.post('/api/v1/notebooks/', { title: '⟦Recipes⟧' }, uk);
    expect([english.statusCode, ukrainian.statusCode]).toEqual([400, 400]);
    expect(ukrainian.data.error?.code).toBe(english.data.error?.code);
    expect(ukrainian.data.error?.code).toBe('invalid');
    expect(english.data.error?.message).toBe('⟦The request body is not valid.⟧');
    expect(ukrainian.data.error?.message).toBe('⟦Тіло запиту некоректне.⟧');
    expect(ukrainian.data.error?.fields).toEqual({ title: ['⟦У вас уже є блокнот «⟦Recipes⟧».⟧'] });
  });
});

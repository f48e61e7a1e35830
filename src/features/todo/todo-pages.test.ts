import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { type TestApp, type TestBrowser, buildTestApp, createUser, loggedIn } from '../../../test/helpers.js';
import { addTodoItem, createTodoList, listTablesSnapshot } from '../../../test/lists.js';
import { isValidDueDate } from './dates.js';
import { todayIn } from '../../platform/time-zones.js';

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let friend: User;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  friend = await createUser(t.db);
});
afterAll(() => t.close());

const XSS = '<script>alert("x")</script>';

describe('creating a to-do list', () => {
  it('shows empty states that say what to do next', async () => {
    const fresh = await loggedIn(t);
    const index = await fresh.browser.get('/todo/');
    expect(index.body).toContain('Create your first to-do list');
    expect(index.body).toContain('Nobody shares a to-do list with you yet');
    const created = await fresh.browser.post('/todo/new/', { title: 'Garden', description: '' });
    expect(created.statusCode).toBe(302);
    const page = await fresh.browser.get(created.headers.location as string);
    expect(page.body).toContain('Nothing to do yet. Add the first item below.');
    expect(page.body).toContain('Only you can see this list.');
  });

  it('goes to the new list, stored with its owner', async () => {
    const response = await owner.browser.post('/todo/new/', { title: '  Trip  ', description: 'Things to pack' });
    expect(response.statusCode).toBe(302);
    const row = await t.db.selectFrom('todo_lists').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(response.headers.location).toBe(`/todo/${row.id}/`);
    expect([row.owner_id, row.title, row.description]).toEqual([owner.user.id, 'Trip', 'Things to pack']);
  });

  it.each([
    ['an empty title', { title: '   ' }, 'Enter a title.'],
    ['a 10,000-character title', { title: 'x'.repeat(10_000) }, 'Titles have at most 200 characters.'],
    ['a 10,000-character description', { title: 'ok', description: 'x'.repeat(10_000) }, 'Descriptions have at most 2000 characters.'],
  ])('refuses %s with a form error and stores nothing', async (_case, form, message) => {
    const before = await listTablesSnapshot(t.db);
    const response = await owner.browser.post('/todo/new/', form);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(message);
    expect(response.body).toContain('aria-invalid="true"');
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('refuses repeated fields (an array where a string belongs) with a form error, not a 500', async () => {
    const response = await owner.browser.post('/todo/new/', { title: ['one', 'two'] });
    expect(response.statusCode).toBe(400);
    const list = await createTodoList(t.db, owner.user);
    const share = await owner.browser.post(`/todo/${list.id}/share/`, { username: [friend.username, friend.username], action: 'add' });
    expect(share.statusCode).toBe(400);
  });

  it('shows the typed values again on an error', async () => {
    const response = await owner.browser.post('/todo/new/', { title: '', description: 'keep me' });
    expect(response.body).toContain('keep me</textarea>');
  });

  it('refuses an invalid edit and keeps the list as it was', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Before' });
    const response = await owner.browser.post(`/todo/${list.id}/edit/`, { title: '' });
    expect(response.statusCode).toBe(400);
    const row = await t.db.selectFrom('todo_lists').select('title').where('id', '=', list.id).executeTakeFirstOrThrow();
    expect(row.title).toBe('Before');
  });
});

describe('items', () => {
  it.each([
    ['an impossible day', '2024-02-30'],
    ['a thirteenth month', '2024-13-01'],
    ['a five-digit year', '99999-01-01'],
    ['year zero', '0000-01-01'],
    ['a year far out of range', '3000-01-01'],
    ['words', 'tomorrow'],
    ['another format', '01/02/2024'],
  ])('refuses a due date with %s (400, nothing stored)', async (_case, due_date) => {
    const list = await createTodoList(t.db, owner.user);
    const response = await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Pay rent', due_date });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Enter a real date between 1900-01-01 and 2999-12-31');
    expect(response.body).toContain('value="Pay rent"');
    expect(await t.db.selectFrom('todo_items').select('id').where('list_id', '=', list.id).execute()).toEqual([]);
  });

  it('refuses empty and 10,000-character item texts', async () => {
    const list = await createTodoList(t.db, owner.user);
    expect((await owner.browser.post(`/todo/${list.id}/items/add/`, { text: ' ' })).statusCode).toBe(400);
    const long = await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'x'.repeat(10_000) });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('Items have at most 500 characters.');
    expect(await t.db.selectFrom('todo_items').select('id').where('list_id', '=', list.id).execute()).toEqual([]);
  });

  it('accepts leap days and no due date', async () => {
    expect(isValidDueDate('2024-02-29')).toBe(true);
    expect(isValidDueDate('2023-02-29')).toBe(false);
    const list = await createTodoList(t.db, owner.user);
    expect((await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Leap', due_date: '2024-02-29' })).statusCode).toBe(302);
    expect((await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Someday' })).statusCode).toBe(302);
  });

  it('lists open items first, marks overdue ones and strikes done ones through', async () => {
    const list = await createTodoList(t.db, owner.user);
    await addTodoItem(t.db, list, { text: 'Done thing', is_done: 1, position: 0, due_date: '2001-01-01' });
    await addTodoItem(t.db, list, { text: 'Late thing', due_date: '2001-01-01', position: 1 });
    await addTodoItem(t.db, list, { text: 'Future thing', due_date: '2999-12-31', position: 2 });
    await addTodoItem(t.db, list, { text: 'Today thing', due_date: todayIn('UTC'), position: 3 });
    const body = (await owner.browser.get(`/todo/${list.id}/`)).body;
    // Open items by due date, the earliest first; done items after.
    const order = ['Late thing', 'Today thing', 'Future thing', 'Done thing'].map((text) => body.indexOf(text));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(body).toContain('<del class="item-text">Done thing</del>');
    const rows = body.split('<li class="todo-item').slice(1);
    const rowOf = (text: string) => rows.find((row) => row.includes(text))!;
    expect(rowOf('Late thing')).toMatch(/^ overdue"/);
    expect(rowOf('Late thing')).toContain('Overdue');
    for (const text of ['Future thing', 'Today thing', 'Done thing']) expect(rowOf(text)).not.toContain('Overdue');
    expect(body).toContain('3 open of 4');
  });

  it('masks the CSRF secret once per page, not once per form', async () => {
    const list = await createTodoList(t.db, owner.user);
    for (let i = 0; i < 5; i++) await addTodoItem(t.db, list, { text: `Task ${i}`, position: i });
    const body = (await owner.browser.get(`/todo/${list.id}/`)).body;
    const tokens = [...body.matchAll(/name="csrfmiddlewaretoken" value="([^"]+)"/g)].map((match) => match[1]);
    expect(tokens.length).toBeGreaterThan(6);
    expect(new Set(tokens).size).toBe(1);
  });
});

describe('sharing by username', () => {
  it('refuses an unknown username on the list page (400) and stores nothing', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Mine' });
    const response = await owner.browser.post(`/todo/${list.id}/share/`, { username: 'nobody-by-this-name', action: 'add' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('<h1>Mine</h1>');
    expect(response.body).toContain('There is no user named “nobody-by-this-name”.');
    expect(await t.db.selectFrom('todo_list_shares').select('user_id').where('list_id', '=', list.id).execute()).toEqual([]);
  });

  it("refuses the owner's own name, in any case", async () => {
    const list = await createTodoList(t.db, owner.user);
    const response = await owner.browser.post(`/todo/${list.id}/share/`, { username: owner.user.username.toUpperCase(), action: 'add' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('This is your own list');
    expect(await t.db.selectFrom('todo_list_shares').select('user_id').where('list_id', '=', list.id).execute()).toEqual([]);
  });

  it('refuses a missing action, a 10,000-character name, and removing someone not on the list', async () => {
    const list = await createTodoList(t.db, owner.user);
    const cases = [{ username: friend.username }, { username: 'x'.repeat(10_000), action: 'add' }, { username: friend.username, action: 'remove' }];
    for (const form of cases) expect((await owner.browser.post(`/todo/${list.id}/share/`, form)).statusCode).toBe(400);
  });

  it('shares with Émile when the owner types ÉMILE or émile', async () => {
    const emile = await createUser(t.db, { username: 'Émile' });
    for (const typed of ['ÉMILE', 'émile']) {
      const list = await createTodoList(t.db, owner.user);
      const response = await owner.browser.post(`/todo/${list.id}/share/`, { username: typed, action: 'add' });
      expect(response.statusCode, typed).toBe(302);
      expect(await t.db.selectFrom('todo_list_shares').select('user_id').where('list_id', '=', list.id).execute()).toEqual([{ user_id: emile.id }]);
    }
  });

  it('adding someone twice keeps one share', async () => {
    const list = await createTodoList(t.db, owner.user);
    for (let i = 0; i < 2; i++) await owner.browser.post(`/todo/${list.id}/share/`, { username: friend.username, action: 'add' });
    expect(await t.db.selectFrom('todo_list_shares').select('user_id').where('list_id', '=', list.id).execute()).toEqual([{ user_id: friend.id }]);
  });
});

describe('escaping', () => {
  it('escapes list titles, descriptions and item texts everywhere they are shown', async () => {
    const list = await createTodoList(t.db, owner.user, { title: XSS, description: XSS, sharedWith: [friend] });
    await addTodoItem(t.db, list, { text: XSS });
    const friendBrowser = await loggedIn(t);
    await t.db.insertInto('todo_list_shares').values({ list_id: list.id, user_id: friendBrowser.user.id }).execute();
    const pages = [
      await owner.browser.get('/todo/'),
      await owner.browser.get(`/todo/${list.id}/`),
      await owner.browser.get(`/todo/${list.id}/edit/`),
      await owner.browser.get(`/todo/${list.id}/delete/`),
      await friendBrowser.browser.get('/todo/'),
      await friendBrowser.browser.get(`/todo/${list.id}/`),
    ];
    for (const page of pages) {
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain(XSS);
      expect(page.body).toContain('&lt;script>');
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { type TestApp, TestBrowser, buildTestApp, createUser, loggedIn } from '../../../test/helpers.js';
import { addTodoItem, createTodoList, listTablesSnapshot } from '../../../test/lists.js';

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let reader: { user: User; browser: TestBrowser };
let stranger: { user: User; browser: TestBrowser };
let other: User;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  reader = await loggedIn(t);
  stranger = await loggedIn(t);
  other = await createUser(t.db);
});
afterAll(() => t.close());

/** A fresh list of the owner's, shared with the reader, with one open item. */
async function scenario() {
  const list = await createTodoList(t.db, owner.user, { title: 'Household', sharedWith: [reader.user] });
  const item = await addTodoItem(t.db, list, { text: 'Fix the tap' });
  return { list, item };
}

/** Every way to change a list or its items, as [method, path, form]. */
function changes(listId: number, itemId: number): [string, string, Record<string, string>][] {
  return [
    ['GET', `/todo/${listId}/edit/`, {}],
    ['POST', `/todo/${listId}/edit/`, { title: 'Taken over', description: '' }],
    ['GET', `/todo/${listId}/delete/`, {}],
    ['POST', `/todo/${listId}/delete/`, {}],
    ['POST', `/todo/${listId}/share/`, { username: other.username, action: 'add' }],
    ['POST', `/todo/${listId}/share/`, { username: reader.user.username, action: 'remove' }],
    ['POST', `/todo/${listId}/items/add/`, { text: 'Sneaky item', due_date: '' }],
    ['POST', `/todo/${listId}/items/add/`, { text: '', due_date: 'not a date' }],
    ['POST', `/todo/items/${itemId}/toggle/`, {}],
    ['POST', `/todo/items/${itemId}/delete/`, {}],
  ];
}

async function send(browser: TestBrowser, method: string, path: string, form: Record<string, string>) {
  return method === 'GET' ? browser.get(path) : browser.post(path, form);
}

describe('owner of a to-do list', () => {
  it('sees it under "Mine" and reads it with edit controls', async () => {
    const { list } = await scenario();
    const index = await owner.browser.get('/todo/');
    expect(index.statusCode).toBe(200);
    const mine = index.body.split('id="shared"')[0]!;
    expect(mine).toContain(`href="/todo/${list.id}/"`);
    expect(mine).toContain('shared with 1 person');
    const page = await owner.browser.get(`/todo/${list.id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`action="/todo/${list.id}/items/add/"`);
    expect(page.body).toContain(`href="/todo/${list.id}/edit/"`);
    expect(page.body).toContain(reader.user.username);
  });

  it('edits the title and description', async () => {
    const { list } = await scenario();
    expect((await owner.browser.get(`/todo/${list.id}/edit/`)).statusCode).toBe(200);
    const response = await owner.browser.post(`/todo/${list.id}/edit/`, { title: 'Renamed', description: 'All of it' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/todo/${list.id}/`);
    const row = await t.db.selectFrom('todo_lists').selectAll().where('id', '=', list.id).executeTakeFirstOrThrow();
    expect([row.title, row.description]).toEqual(['Renamed', 'All of it']);
  });

  it('confirms, then deletes the list with its items and shares', async () => {
    const { list } = await scenario();
    const confirm = await owner.browser.get(`/todo/${list.id}/delete/`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(`action="/todo/${list.id}/delete/"`);
    const response = await owner.browser.post(`/todo/${list.id}/delete/`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/todo/');
    expect(await t.db.selectFrom('todo_lists').select('id').where('id', '=', list.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('todo_items').select('id').where('list_id', '=', list.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('todo_list_shares').select('user_id').where('list_id', '=', list.id).execute()).toEqual([]);
  });

  it('shares with a user by name and removes them again', async () => {
    const { list } = await scenario();
    const added = await owner.browser.post(`/todo/${list.id}/share/`, { username: other.username.toUpperCase(), action: 'add' });
    expect(added.statusCode).toBe(302);
    expect(added.headers.location).toBe(`/todo/${list.id}/`);
    const shared = () => t.db.selectFrom('todo_list_shares').select('user_id').where('list_id', '=', list.id).orderBy('user_id').execute();
    expect((await shared()).map((row) => row.user_id)).toEqual([reader.user.id, other.id]);
    const removed = await owner.browser.post(`/todo/${list.id}/share/`, { username: other.username, action: 'remove' });
    expect(removed.statusCode).toBe(302);
    expect((await shared()).map((row) => row.user_id)).toEqual([reader.user.id]);
  });

  it('adds, toggles and deletes items, each time back to the list', async () => {
    const { list, item } = await scenario();
    const added = await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Buy bulbs', due_date: '2030-05-01' });
    expect(added.statusCode).toBe(302);
    expect(added.headers.location).toBe(`/todo/${list.id}/#add-item`);
    const rows = await t.db.selectFrom('todo_items').selectAll().where('list_id', '=', list.id).orderBy('position').execute();
    expect(rows.map((row) => [row.text, row.due_date, row.position])).toEqual([['Fix the tap', null, 0], ['Buy bulbs', '2030-05-01', 1]]);

    const isDone = async () => (await t.db.selectFrom('todo_items').select('is_done').where('id', '=', item.id).executeTakeFirstOrThrow()).is_done;
    const toggled = await owner.browser.post(`/todo/items/${item.id}/toggle/`);
    expect([toggled.statusCode, toggled.headers.location]).toEqual([302, `/todo/${list.id}/#item-${item.id}`]);
    expect(await isDone()).toBe(1);
    await owner.browser.post(`/todo/items/${item.id}/toggle/`);
    expect(await isDone()).toBe(0);

    const deleted = await owner.browser.post(`/todo/items/${item.id}/delete/`);
    expect([deleted.statusCode, deleted.headers.location]).toEqual([302, `/todo/${list.id}/#live-list`]);
    expect(await t.db.selectFrom('todo_items').select('id').where('id', '=', item.id).execute()).toEqual([]);
  });
});

describe('user the list is shared with', () => {
  it('sees it under "Shared with me" with the owner\'s name, and reads it without edit controls', async () => {
    const { list } = await scenario();
    const index = await reader.browser.get('/todo/');
    const [mine, shared] = index.body.split('id="shared"') as [string, string];
    expect(mine).not.toContain(`href="/todo/${list.id}/"`);
    expect(shared).toContain(`href="/todo/${list.id}/"`);
    expect(shared).toContain(owner.user.username);
    const page = await reader.browser.get(`/todo/${list.id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Fix the tap');
    expect(page.body).toContain(owner.user.username);
    for (const control of ['/edit/', '/delete/', '/share/', '/items/add/', '/toggle/']) expect(page.body).not.toContain(control);
  });

  it('gets 404 for every change, and nothing changes', async () => {
    const { list, item } = await scenario();
    const before = await listTablesSnapshot(t.db);
    for (const [method, path, form] of changes(list.id, item.id)) {
      const response = await send(reader.browser, method, path, form);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('loses access at once when the owner removes them', async () => {
    const { list } = await scenario();
    expect((await reader.browser.get(`/todo/${list.id}/`)).statusCode).toBe(200);
    const removed = await owner.browser.post(`/todo/${list.id}/share/`, { username: reader.user.username, action: 'remove' });
    expect(removed.statusCode).toBe(302);
    expect((await reader.browser.get(`/todo/${list.id}/`)).statusCode).toBe(404);
    expect((await reader.browser.get('/todo/')).body).not.toContain(`href="/todo/${list.id}/"`);
  });
});

describe('stranger', () => {
  it('does not see the list in the index and gets 404 for reading it', async () => {
    const { list } = await scenario();
    expect((await stranger.browser.get('/todo/')).body).not.toContain(`/todo/${list.id}/`);
    expect((await stranger.browser.get(`/todo/${list.id}/`)).statusCode).toBe(404);
  });

  it('gets 404 for every change, and nothing changes', async () => {
    const { list, item } = await scenario();
    const before = await listTablesSnapshot(t.db);
    for (const [method, path, form] of changes(list.id, item.id)) {
      const response = await send(stranger.browser, method, path, form);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('gets the same 404 for an absent list and for ids that are not ids', async () => {
    const absent = await stranger.browser.get('/todo/999999/');
    const { list } = await scenario();
    const hidden = await stranger.browser.get(`/todo/${list.id}/`);
    // The masked CSRF token differs on every page; everything else must be identical.
    const unmasked = (body: string) => body.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, '');
    expect(hidden.statusCode).toBe(404);
    expect(unmasked(hidden.body)).toBe(unmasked(absent.body));
    for (const path of ['/todo/abc/', '/todo/0/', '/todo/99999999999/', '/todo/1e3/']) {
      expect((await stranger.browser.get(path)).statusCode, path).toBe(404);
    }
    expect((await stranger.browser.post('/todo/items/99999999999/toggle/')).statusCode).toBe(404);
  });
});

describe('anonymous caller', () => {
  it('is sent to the login page', async () => {
    const response = await new TestBrowser(t.app).get('/todo/');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/login/?next=%2Ftodo%2F');
  });
});

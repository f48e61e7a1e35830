import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { ApiClient, createToken, results } from '../../../test/api.js';
import { type TestApp, type TestBrowser, buildTestApp, createUser, loggedIn } from '../../../test/helpers.js';
import { addTodoItem, createTodoList, listTablesSnapshot } from '../../../test/lists.js';

// The owner's use of the to-do API, its validation, paging and ETags. Who else may do what:
// api-permissions.test.ts.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let reader: User;
let api: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  reader = await createUser(t.db);
  api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
});
afterAll(() => t.close());

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

describe('owner of a to-do list', () => {
  it('creates a list: 201 with the object and its Location', async () => {
    const response = await api.post('/api/v1/todo/', { title: '  Garden  ', description: 'Spring' });
    expect(response.statusCode).toBe(201);
    const { id } = response.data;
    expect(response.headers.location).toBe(`/api/v1/todo/${id}/`);
    expect(response.data).toMatchObject({ title: 'Garden', description: 'Spring', owner: owner.user.username, shares: [], items: [] });
    expect(String(response.data.created_at)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const row = await t.db.selectFrom('todo_lists').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
    expect([row.owner_id, row.title, row.description]).toEqual([owner.user.id, 'Garden', 'Spring']);
  });

  it('reads a list with its items, open ones first, and who it is shared with', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'House', sharedWith: [reader] });
    await addTodoItem(t.db, list, { text: 'Done one', is_done: 1, position: 0 });
    const open = await addTodoItem(t.db, list, { text: 'Open one', due_date: '2030-01-02', position: 1 });
    const response = await api.get(`/api/v1/todo/${list.id}/`);
    expect(response.statusCode).toBe(200);
    expect(response.data.shares).toEqual([{ username: reader.username, permission: 'read' }]);
    expect((response.data.items as unknown as { text: string }[]).map((item) => item.text)).toEqual(['Open one', 'Done one']);
    expect(response.data.items?.[0]).toMatchObject({ id: open.id, list: list.id, due_date: '2030-01-02', is_done: false });
  });

  it('changes only the fields sent', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Old', description: 'Kept' });
    const response = await api.patch(`/api/v1/todo/${list.id}/`, { title: 'New' });
    expect(response.statusCode).toBe(200);
    expect(response.data).toMatchObject({ title: 'New', description: 'Kept' });
    const row = await t.db.selectFrom('todo_lists').selectAll().where('id', '=', list.id).executeTakeFirstOrThrow();
    expect([row.title, row.description]).toEqual(['New', 'Kept']);
  });

  it('adds an item (201, Location readable), marks it done and not done, and deletes it', async () => {
    const list = await createTodoList(t.db, owner.user);
    const added = await api.post(`/api/v1/todo/${list.id}/items/`, { text: 'Mow', due_date: '2031-06-30' });
    expect(added.statusCode).toBe(201);
    expect(added.data).toMatchObject({ list: list.id, text: 'Mow', due_date: '2031-06-30', is_done: false });
    expect((await api.get(added.headers.location as string)).data).toEqual(added.data);
    const item = `/api/v1/todo/items/${added.data.id}/`;
    const isDone = async () => (await t.db.selectFrom('todo_items').select('is_done').where('id', '=', Number(added.data.id)).executeTakeFirstOrThrow()).is_done;
    // Setting, not flipping: the same request twice leaves it done.
    for (let i = 0; i < 2; i++) expect((await api.patch(item, { is_done: true })).data.is_done).toBe(true);
    expect(await isDone()).toBe(1);
    expect((await api.patch(item, { is_done: false })).data.is_done).toBe(false);
    expect(await isDone()).toBe(0);
    expect((await api.delete(item)).statusCode).toBe(204);
    expect(await t.db.selectFrom('todo_items').select('id').where('list_id', '=', list.id).execute()).toEqual([]);
  });

  it('shares by username, which notifies the user once, and stops sharing', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Trip' });
    const friend = await createUser(t.db);
    for (let i = 0; i < 2; i++) {
      const added = await api.post(`/api/v1/todo/${list.id}/share/`, { username: friend.username.toUpperCase(), action: 'add', permission: 'read' });
      expect(added.statusCode).toBe(200);
      expect(added.data.shares).toEqual([{ username: friend.username, permission: 'read' }]);
    }
    const notices = await t.db.selectFrom('notifications').select(['kind', 'text', 'link']).where('user_id', '=', friend.id).execute();
    expect(notices).toEqual([{ kind: 'list.shared', text: `${owner.user.username} shared the to-do list Trip with you`, link: `/todo/${list.id}/` }]);
    const removed = await api.post(`/api/v1/todo/${list.id}/share/`, { username: friend.username, action: 'remove' });
    expect([removed.statusCode, removed.data.shares]).toEqual([200, []]);
  });

  it('deletes a list with its items and shares', async () => {
    const list = await createTodoList(t.db, owner.user, { sharedWith: [reader] });
    await addTodoItem(t.db, list);
    expect((await api.delete(`/api/v1/todo/${list.id}/`)).statusCode).toBe(204);
    expect(await t.db.selectFrom('todo_lists').select('id').where('id', '=', list.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('todo_items').select('id').where('list_id', '=', list.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('todo_list_shares').select('user_id').where('list_id', '=', list.id).execute()).toEqual([]);
    expect((await api.get(`/api/v1/todo/${list.id}/`)).statusCode).toBe(404);
  });
});

describe('invalid bodies', () => {
  it('answer 400 with messages per field, and change nothing', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Mine' });
    const item = await addTodoItem(t.db, list);
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/v1/todo/', { title: '   ' }, 'title'],
      ['POST', '/api/v1/todo/', { title: 'x'.repeat(201) }, 'title'],
      ['POST', '/api/v1/todo/', { description: 'no title' }, 'title'],
      ['POST', '/api/v1/todo/', { title: 'ok', owner: reader.username }, '__all__'],
      ['POST', '/api/v1/todo/', { title: 'ok', description: 7 }, 'description'],
      ['PATCH', `/api/v1/todo/${list.id}/`, { title: '' }, 'title'],
      ['PATCH', `/api/v1/todo/${list.id}/`, { description: 'd'.repeat(2001) }, 'description'],
      ['POST', `/api/v1/todo/${list.id}/items/`, { text: '' }, 'text'],
      ['POST', `/api/v1/todo/${list.id}/items/`, { text: 'ok', due_date: '2023-02-30' }, 'due_date'],
      ['POST', `/api/v1/todo/${list.id}/items/`, { text: 'ok', assignee: reader.username }, 'assignee'],
      ['PATCH', `/api/v1/todo/items/${item.id}/`, { is_done: 'yes' }, 'is_done'],
      ['PATCH', `/api/v1/todo/items/${item.id}/`, {}, 'is_done'],
      ['POST', `/api/v1/todo/${list.id}/share/`, { username: 'nobody-by-this-name', action: 'add' }, 'username'],
      ['POST', `/api/v1/todo/${list.id}/share/`, { username: owner.user.username, action: 'add' }, 'username'],
      ['POST', `/api/v1/todo/${list.id}/share/`, { username: reader.username, action: 'remove' }, 'username'],
      ['POST', `/api/v1/todo/${list.id}/share/`, { username: reader.username, action: 'add', permission: 'write' }, 'permission'],
      ['POST', `/api/v1/todo/${list.id}/share/`, { username: reader.username }, 'action'],
    ];
    const before = await listTablesSnapshot(t.db);
    for (const [method, path, body, field] of cases) {
      const response = await api.request(method, path, { body });
      const label = `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`;
      expect(response.statusCode, label).toBe(400);
      expect(response.data.error?.code, label).toBe('invalid');
      expect(Object.keys(response.data.error?.fields ?? {}), label).toContain(field);
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('uses the forms’ words', async () => {
    const response = await api.post('/api/v1/todo/', { title: '' });
    expect(response.data.error?.fields).toEqual({ title: ['Enter a title.'] });
  });
});

describe('paging', () => {
  it('pages through the lists, most recently changed first, with next', async () => {
    const user = await createUser(t.db);
    const client = new ApiClient(t.app, { token: await createToken(t.db, user) });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createTodoList(t.db, user, { title: `L${i}` })).id);
    // Two with the same updated_at: the id breaks the tie, so none is skipped or repeated.
    await t.db.updateTable('todo_lists').set({ updated_at: 1_000 }).where('id', 'in', ids).execute();
    const first = await client.get('/api/v1/todo/?limit=2');
    expect(results(first).map((list) => list.id)).toEqual([ids[2], ids[1]]);
    expect(first.data.next).not.toBeNull();
    const second = await client.get(pathOf(String(first.data.next)));
    expect(results(second).map((list) => list.id)).toEqual([ids[0]]);
    expect(second.data.next).toBeNull();
  });

  it('refuses a cursor that is not one of ours (400), and a limit past 100', async () => {
    for (const query of ['cursor=bm90LWEtY3Vyc29y', 'cursor=WzEsOTk5OTk5OTk5OTk5XQ', 'limit=101', 'limit=0']) {
      const response = await api.get(`/api/v1/todo/?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
  });
});

describe('ETags', () => {
  it('answer 304 to If-None-Match with the current ETag, 200 once the list changed', async () => {
    const list = await createTodoList(t.db, owner.user);
    const first = await api.get(`/api/v1/todo/${list.id}/`);
    const etag = String(first.headers.etag);
    expect((await api.get(`/api/v1/todo/${list.id}/`, { headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    await addTodoItem(t.db, list, { text: 'New' });
    expect((await api.get(`/api/v1/todo/${list.id}/`, { headers: { 'if-none-match': etag } })).statusCode).toBe(200);
  });

  it('refuse a PATCH with an old ETag (412, nothing changed) and take one with the new', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Start' });
    const old = String((await api.get(`/api/v1/todo/${list.id}/`)).headers.etag);
    expect((await owner.browser.post(`/todo/${list.id}/edit/`, { title: 'From the page', description: '' })).statusCode).toBe(302);
    const refused = await api.patch(`/api/v1/todo/${list.id}/`, { title: 'From the API' }, { headers: { 'if-match': old } });
    expect([refused.statusCode, refused.data.error?.code]).toEqual([412, 'precondition_failed']);
    expect((await t.db.selectFrom('todo_lists').select('title').where('id', '=', list.id).executeTakeFirstOrThrow()).title).toBe('From the page');
    const fresh = String((await api.get(`/api/v1/todo/${list.id}/`)).headers.etag);
    const taken = await api.patch(`/api/v1/todo/${list.id}/`, { title: 'From the API' }, { headers: { 'if-match': fresh } });
    expect([taken.statusCode, taken.data.title]).toEqual([200, 'From the API']);
  });

  it('let only one of two PATCHes made with the same ETag through', async () => {
    const list = await createTodoList(t.db, owner.user);
    const etag = String((await api.get(`/api/v1/todo/${list.id}/`)).headers.etag);
    const answers = await Promise.all(['One', 'Two'].map((title) => api.patch(`/api/v1/todo/${list.id}/`, { title }, { headers: { 'if-match': etag } })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 412]);
  });

  it('refuse marking an item with an old ETag', async () => {
    const list = await createTodoList(t.db, owner.user);
    const item = await addTodoItem(t.db, list);
    const old = String((await api.get(`/api/v1/todo/items/${item.id}/`)).headers.etag);
    expect((await owner.browser.post(`/todo/items/${item.id}/toggle/`)).statusCode).toBe(302);
    const refused = await api.patch(`/api/v1/todo/items/${item.id}/`, { is_done: false }, { headers: { 'if-match': old } });
    expect(refused.statusCode).toBe(412);
    expect((await t.db.selectFrom('todo_items').select('is_done').where('id', '=', item.id).executeTakeFirstOrThrow()).is_done).toBe(1);
  });
});

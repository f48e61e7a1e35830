import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { type TestApp, TestBrowser, buildTestApp, createUser, loggedIn } from '../../../test/helpers.js';
import { addTodoItem, createTodoList, listTablesSnapshot } from '../../../test/lists.js';

// The tick permission on to-do list pages, action by action and role by role: the roles that may
// act first, then every refused role gets the 404 of an absent list and nothing changes.

type Caller = { user: User; browser: TestBrowser };
type Role = 'owner' | 'tick user' | 'read user' | 'stranger';

let t: TestApp;
let owner: Caller;
let ticker: Caller;
let reader: Caller;
let stranger: Caller;
let other: User;

beforeAll(async () => {
  t = await buildTestApp();
  [owner, ticker, reader, stranger] = [await loggedIn(t), await loggedIn(t), await loggedIn(t), await loggedIn(t)];
  other = await createUser(t.db);
});
afterAll(() => t.close());

const caller = (role: Role): Caller => ({ owner, 'tick user': ticker, 'read user': reader, stranger })[role];

async function scenario() {
  const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user], tickers: [ticker.user] });
  const item = await addTodoItem(t.db, list, { text: 'Water the plants' });
  return { list, item };
}

async function expectRefused(role: Role, act: (ids: { listId: number; itemId: number }) => Promise<{ statusCode: number }>) {
  const { list, item } = await scenario();
  const before = await listTablesSnapshot(t.db);
  expect((await act({ listId: list.id, itemId: item.id })).statusCode, role).toBe(404);
  expect(await listTablesSnapshot(t.db), role).toEqual(before);
}

describe('adding an item', () => {
  it('is allowed to the owner and a tick user, recording who added it; refused (404) to a read user and a stranger', async () => {
    for (const role of ['owner', 'tick user'] as const) {
      const { list } = await scenario();
      const response = await caller(role).browser.post(`/todo/${list.id}/items/add/`, { text: `Task of ${role}`, due_date: '' });
      expect([response.statusCode, response.headers.location], role).toEqual([302, `/todo/${list.id}/#add-item`]);
      const row = await t.db.selectFrom('todo_items').select(['created_by', 'position']).where('list_id', '=', list.id).where('text', '=', `Task of ${role}`).executeTakeFirstOrThrow();
      expect(row, role).toEqual({ created_by: caller(role).user.id, position: 1 });
    }
    for (const role of ['read user', 'stranger'] as const) {
      await expectRefused(role, ({ listId }) => caller(role).browser.post(`/todo/${listId}/items/add/`, { text: 'Sneaky' }));
      await expectRefused(role, ({ listId }) => caller(role).browser.post(`/todo/${listId}/items/add/`, { text: '', assignee: owner.user.username }));
    }
  });
});

describe('ticking an item', () => {
  it('is allowed to the owner and a tick user, recording who and when, cleared when reopened; refused (404) to a read user and a stranger', async () => {
    for (const role of ['owner', 'tick user'] as const) {
      const { list, item } = await scenario();
      const before = Date.now();
      const response = await caller(role).browser.post(`/todo/items/${item.id}/toggle/`);
      expect([response.statusCode, response.headers.location], role).toEqual([302, `/todo/${list.id}/#item-${item.id}`]);
      const row = await t.db.selectFrom('todo_items').select(['is_done', 'done_by', 'done_at']).where('id', '=', item.id).executeTakeFirstOrThrow();
      expect([row.is_done, row.done_by], role).toEqual([1, caller(role).user.id]);
      expect(Number(row.done_at), role).toBeGreaterThanOrEqual(before);
      await caller(role).browser.post(`/todo/items/${item.id}/toggle/`);
      expect(await t.db.selectFrom('todo_items').select(['is_done', 'done_by', 'done_at']).where('id', '=', item.id).executeTakeFirstOrThrow(), role)
        .toEqual({ is_done: 0, done_by: null, done_at: null });
    }
    for (const role of ['read user', 'stranger'] as const) await expectRefused(role, ({ itemId }) => caller(role).browser.post(`/todo/items/${itemId}/toggle/`));
  });
});

describe('owner-only actions', () => {
  const actions: [string, (browser: TestBrowser, ids: { listId: number; itemId: number }) => Promise<{ statusCode: number }>][] = [
    ['delete an item', (browser, { itemId }) => browser.post(`/todo/items/${itemId}/delete/`)],
    ['edit the list', (browser, { listId }) => browser.post(`/todo/${listId}/edit/`, { title: 'Renamed', description: '' })],
    ['delete the list', (browser, { listId }) => browser.post(`/todo/${listId}/delete/`)],
    ['share the list', (browser, { listId }) => browser.post(`/todo/${listId}/share/`, { username: other.username, action: 'add', permission: 'tick' })],
    ['change a share', (browser, { listId }) => browser.post(`/todo/${listId}/share/`, { username: reader.user.username, action: 'add', permission: 'tick' })],
  ];
  for (const [name, act] of actions) {
    it(`${name}: the owner may; a tick user gets 404 like a read user and a stranger`, async () => {
      const { list, item } = await scenario();
      expect((await act(owner.browser, { listId: list.id, itemId: item.id })).statusCode).toBe(302);
      for (const role of ['tick user', 'read user', 'stranger'] as const) await expectRefused(role, (ids) => act(caller(role).browser, ids));
    });
  }
});

describe('the list page', () => {
  it('shows a tick user tick buttons and the add form, without delete, edit or share controls', async () => {
    const { list, item } = await scenario();
    const page = (await ticker.browser.get(`/todo/${list.id}/`)).body;
    expect(page).toContain(`action="/todo/items/${item.id}/toggle/"`);
    expect(page).toContain(`action="/todo/${list.id}/items/add/"`);
    for (const control of ['/delete/', '/edit/', '/share/']) expect(page, control).not.toContain(control);
  });

  it('shows a read user no tick buttons and no add form', async () => {
    const { list } = await scenario();
    const page = (await reader.browser.get(`/todo/${list.id}/`)).body;
    expect(page).toContain('Water the plants');
    for (const control of ['/toggle/', '/items/add/', '/delete/', '/edit/', '/share/']) expect(page, control).not.toContain(control);
  });

  it('shows who added an item and who ticked it, and when', async () => {
    const { list } = await scenario();
    await ticker.browser.post(`/todo/${list.id}/items/add/`, { text: 'Buy stamps' });
    const stamps = await t.db.selectFrom('todo_items').select('id').where('list_id', '=', list.id).where('text', '=', 'Buy stamps').executeTakeFirstOrThrow();
    await owner.browser.post(`/todo/items/${stamps.id}/toggle/`);
    const page = (await reader.browser.get(`/todo/${list.id}/`)).body;
    expect(page).toContain(`added by ${ticker.user.username} · done by ${owner.user.username} <time datetime=`);
  });
});

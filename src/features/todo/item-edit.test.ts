import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { type TestApp, TestBrowser, buildTestApp, createGroup, createUser, loggedIn } from '../../../test/helpers.js';
import { addTodoItem, createTodoList, listTablesSnapshot } from '../../../test/lists.js';

// Issue 22 on to-do lists: editing an item and its delete confirmation are the owner's (anyone
// else gets the 404 of an absent item), open items by due date, a failed add's error summary, and
// sharing with every member of one of the owner's groups.

type Caller = { user: User; browser: TestBrowser };
type Role = 'owner' | 'tick user' | 'read user' | 'stranger';

let t: TestApp;
let owner: Caller;
let ticker: Caller;
let reader: Caller;
let stranger: Caller;

beforeAll(async () => {
  t = await buildTestApp();
  [owner, ticker, reader, stranger] = [await loggedIn(t), await loggedIn(t), await loggedIn(t), await loggedIn(t)];
});
afterAll(() => t.close());

const caller = (role: Role): Caller => ({ owner, 'tick user': ticker, 'read user': reader, stranger })[role];
const NOT_OWNER: Role[] = ['tick user', 'read user', 'stranger'];

async function scenario() {
  const list = await createTodoList(t.db, owner.user, { title: 'House', sharedWith: [reader.user], tickers: [ticker.user] });
  const item = await addTodoItem(t.db, list, { text: 'Fix the tap', position: 0 });
  return { list, item };
}

async function expectRefused(role: Role, act: (ids: { listId: number; itemId: number }) => Promise<{ statusCode: number }>) {
  const { list, item } = await scenario();
  const before = await listTablesSnapshot(t.db);
  expect((await act({ listId: list.id, itemId: item.id })).statusCode, role).toBe(404);
  expect(await listTablesSnapshot(t.db), role).toEqual(before);
}

const itemRow = (id: number) => t.db.selectFrom('todo_items').selectAll().where('id', '=', id).executeTakeFirst();

describe('editing an item', () => {
  it('is the owner’s, assigning to a reader; refused (404) to everyone else, as a missing item', async () => {
    const { list, item } = await scenario();
    expect((await owner.browser.get(`/todo/items/${item.id}/edit/`)).body).toContain('value="Fix the tap"');
    const saved = await owner.browser.post(`/todo/items/${item.id}/edit/`, { text: 'Fix both taps', due_date: '2030-01-02', assignee: reader.user.username });
    expect([saved.statusCode, saved.headers.location]).toEqual([302, `/todo/${list.id}/#item-${item.id}`]);
    expect(await itemRow(item.id)).toMatchObject({ text: 'Fix both taps', due_date: '2030-01-02', assignee_id: reader.user.id, is_done: 0 });
    for (const role of NOT_OWNER) {
      await expectRefused(role, ({ itemId }) => caller(role).browser.get(`/todo/items/${itemId}/edit/`));
      await expectRefused(role, ({ itemId }) => caller(role).browser.post(`/todo/items/${itemId}/edit/`, { text: 'Sneaky' }));
      await expectRefused(role, ({ itemId }) => caller(role).browser.get(`/todo/items/${itemId}/delete/`));
    }
  });

  it('refuses an empty text, a bad date or an assignee who cannot see the list (400), nothing changed', async () => {
    const { item } = await scenario();
    const outsider = await createUser(t.db);
    const before = await listTablesSnapshot(t.db);
    for (const body of [{ text: '' }, { text: 'x', due_date: '2030-02-30' }, { text: 'x', assignee: outsider.username }]) {
      const response = await owner.browser.post(`/todo/items/${item.id}/edit/`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.body).toContain('data-error-summary');
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });
});

describe('the list page', () => {
  it('sorts open items by due date (undated last, then as added), done items after; an empty box marks an open item', async () => {
    const list = await createTodoList(t.db, owner.user);
    await addTodoItem(t.db, list, { text: 'Undated A', position: 0 });
    await addTodoItem(t.db, list, { text: 'Late', due_date: '2030-03-01', position: 1 });
    await addTodoItem(t.db, list, { text: 'Done early', due_date: '2001-01-01', is_done: 1, position: 2 });
    await addTodoItem(t.db, list, { text: 'Soon', due_date: '2030-01-01', position: 3 });
    await addTodoItem(t.db, list, { text: 'Undated B', position: 4 });
    const body = (await owner.browser.get(`/todo/${list.id}/`)).body;
    const order = ['Soon', 'Late', 'Undated A', 'Undated B', 'Done early'].map((text) => body.indexOf(`>${text}<`));
    expect(order.every((at) => at > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(body).toContain('aria-label="Mark “Soon” as done"><span aria-hidden="true">☐</span>');
    expect(body).toContain('aria-label="Mark “Done early” as not done"><span aria-hidden="true">☑</span>');
  });

  it('shows a failed add’s errors at the top, with the list’s URL to put back', async () => {
    const { list } = await scenario();
    const response = await owner.browser.post(`/todo/${list.id}/items/add/`, { text: '' });
    expect(response.statusCode).toBe(400);
    expect(response.body.indexOf('data-error-summary')).toBeLessThan(response.body.indexOf('<h1>'));
    expect(response.body).toContain('href="#id_text"');
    expect(response.body).toContain(`data-replace-url="/todo/${list.id}/"`);
    expect((await owner.browser.get(`/todo/${list.id}/items/add/`)).headers.location).toBe(`/todo/${list.id}/`);
  });
});

describe('sharing with a group’s members', () => {
  it('adds every member but the owner as an ordinary share in one go, keeping existing shares', async () => {
    const [ann, bob] = [await createUser(t.db), await createUser(t.db)];
    const group = await createGroup(t.db, owner.user, [ann, bob, reader.user], 'Family');
    const { list } = await scenario();
    expect((await owner.browser.get(`/todo/${list.id}/`)).body).toContain('Share with the members of');
    const response = await owner.browser.post(`/todo/${list.id}/share/`, { action: 'add_group', group: String(group.id), permission: 'tick' });
    expect(response.statusCode).toBe(302);
    const shares = await t.db.selectFrom('todo_list_shares').select(['user_id', 'permission']).where('list_id', '=', list.id).orderBy('user_id').execute();
    expect(shares).toEqual(
      [
        { user_id: ticker.user.id, permission: 'tick' },
        { user_id: reader.user.id, permission: 'read' },
        { user_id: ann.id, permission: 'tick' },
        { user_id: bob.id, permission: 'tick' },
      ].sort((a, b) => a.user_id - b.user_id),
    );
  });

  it('refuses a group the owner is not in, or no group, with a message (400), nothing shared', async () => {
    const outsider = await createUser(t.db);
    const theirs = await createGroup(t.db, outsider, [await createUser(t.db)], 'Not mine');
    const { list } = await scenario();
    const before = await listTablesSnapshot(t.db);
    for (const group of [String(theirs.id), '', 'abc', '99999999']) {
      const response = await owner.browser.post(`/todo/${list.id}/share/`, { action: 'add_group', group });
      expect(response.statusCode, group).toBe(400);
      expect(response.body).toContain('Choose one of your groups.');
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
    // Not the owner: the same 404 as a missing list.
    expect((await reader.browser.post(`/todo/${list.id}/share/`, { action: 'add_group', group: String(theirs.id) })).statusCode).toBe(404);
  });
});

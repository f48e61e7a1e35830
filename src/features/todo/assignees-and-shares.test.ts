import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { type TestApp, TestBrowser, buildTestApp, createGroup, loggedIn } from '../../../test/helpers.js';
import { addTodoItem, createShoppingList, createTodoList, listTablesSnapshot } from '../../../test/lists.js';

// Assignees of to-do items, "Assigned to me", and changing a share's permission.

type Caller = { user: User; browser: TestBrowser };
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

describe('assigning an item', () => {
  it('takes anyone who may read the list, offers them in the form, and shows the assignee on the item', async () => {
    const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user], tickers: [ticker.user] });
    const form = (await ticker.browser.get(`/todo/${list.id}/`)).body;
    for (const person of [owner, ticker, reader]) expect(form).toContain(`<option value="${person.user.username}"`);
    expect(form).not.toContain(`<option value="${stranger.user.username}"`);
    const response = await ticker.browser.post(`/todo/${list.id}/items/add/`, { text: 'Mow the lawn', assignee: reader.user.username.toUpperCase() });
    expect(response.statusCode).toBe(302);
    const row = await t.db.selectFrom('todo_items').select('assignee_id').where('list_id', '=', list.id).executeTakeFirstOrThrow();
    expect(row.assignee_id).toBe(reader.user.id);
    expect((await owner.browser.get(`/todo/${list.id}/`)).body).toContain(`for <strong class="assignee">${reader.user.username}</strong>`);
  });

  it('refuses someone who may not read the list, or nobody by that name, with a 400 form error, storing nothing', async () => {
    const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user] });
    const before = await listTablesSnapshot(t.db);
    for (const assignee of [stranger.user.username, 'nobody-by-this-name']) {
      const response = await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Mow the lawn', assignee });
      expect(response.statusCode, assignee).toBe(400);
      expect(response.body, assignee).toContain(`${assignee} cannot see this list`);
      expect(response.body, assignee).toContain('value="Mow the lawn"');
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });
});

describe('"Assigned to me" on /todo/', () => {
  it('lists open items assigned to the caller with due date and list link, not done ones, not those of lists they no longer see', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Garden', sharedWith: [reader.user] });
    const lost = await createTodoList(t.db, owner.user, { title: 'Attic', sharedWith: [reader.user] });
    await addTodoItem(t.db, list, { text: 'Prune the roses', due_date: '2030-05-01', assignee: reader.user });
    await addTodoItem(t.db, list, { text: 'Rake the leaves', is_done: 1, assignee: reader.user });
    await addTodoItem(t.db, list, { text: 'Owner job', assignee: owner.user });
    await addTodoItem(t.db, lost, { text: 'Clear the attic', assignee: reader.user });
    await t.db.deleteFrom('todo_list_shares').where('list_id', '=', lost.id).execute();
    const section = (await reader.browser.get('/todo/')).body.split('id="assigned"')[1]!.split('id="mine"')[0]!;
    expect(section).toContain('Prune the roses');
    expect(section).toContain('<time datetime="2030-05-01"');
    expect(section).toContain(`<a href="/todo/${list.id}/">Garden</a>`);
    for (const hidden of ['Rake the leaves', 'Owner job', 'Clear the attic']) expect(section, hidden).not.toContain(hidden);
  });
});

describe('changing a share\'s permission', () => {
  it('sharing again with the other permission changes it, says so, and the sharing box shows it', async () => {
    const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user] });
    const response = await owner.browser.post(`/todo/${list.id}/share/`, { username: reader.user.username, action: 'add', permission: 'tick' });
    expect(response.statusCode).toBe(302);
    const share = await t.db.selectFrom('todo_list_shares').select('permission').where('list_id', '=', list.id).executeTakeFirstOrThrow();
    expect(share.permission).toBe('tick');
    const page = (await owner.browser.get(`/todo/${list.id}/`)).body;
    expect(page).toContain(`${reader.user.username} now can tick and add items.`);
    expect(page).toContain(`<strong>${reader.user.username}</strong> <span class="permission">can tick and add items</span>`);
    // The new permission applies at once.
    const item = await addTodoItem(t.db, list);
    expect((await reader.browser.post(`/todo/items/${item.id}/toggle/`)).statusCode).toBe(302);
    await owner.browser.post(`/todo/${list.id}/share/`, { username: reader.user.username, action: 'add', permission: 'read' });
    expect((await reader.browser.post(`/todo/items/${item.id}/toggle/`)).statusCode).toBe(404);
  });

  it('a group-shared shopping list\'s sharing box names the group and its permission, not "Only you"', async () => {
    const group = await createGroup(t.db, owner.user, [reader.user], 'Flatmates');
    const list = await createShoppingList(t.db, owner.user, { group, group_permission: 'tick' });
    const page = (await owner.browser.get(`/shopping/${list.id}/`)).body;
    expect(page).toContain('Members of group <strong>Flatmates</strong> can tick and add items.');
    expect(page).not.toContain('Only you can see this list');
  });
});

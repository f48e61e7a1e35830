import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../db/schema.js';
import { addTodoItem, ApiClient, buildTestApp, createGroup, createTodoList, createToken, createUser, listTablesSnapshot, loggedIn, type TestApp, type TestBrowser, todoRows } from '../../../../test/index.js';

// Assignees of to-do items: anyone who may read the list (its owner, the people it is shared
// with, its group's current members), set on the page, the edit form and the API; and "Assigned
// to me" on /todo/. A new list's page puts its sharing first, so whom to assign to comes first.

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

const rows = () => todoRows(t.db);
const apiOf = async (caller: Caller) => new ApiClient(t.app, { token: await createToken(t.db, caller.user) });

describe('assigning an item on the list page', () => {
  it('takes anyone who may read the list, offers them in the form, and shows the assignee on the item', async () => {
    const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user], tickers: [ticker.user] });
    const form = (await ticker.browser.get(`/todo/${list.id}/`)).body;
    for (const person of [owner, ticker, reader]) expect(form).toContain(`<option value="${person.user.username}"`);
    expect(form).not.toContain(`<option value="${stranger.user.username}"`);
    const response = await ticker.browser.post(`/todo/${list.id}/items/add/`, { text: 'Mow the lawn', assignee: reader.user.username.toUpperCase() });
    expect(response.statusCode).toBe(302);
    const [row] = await rows().items(list.id);
    expect(row?.assignee_id).toBe(reader.user.id);
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

  it('is a 404 to a read user and a stranger, whatever the form, and nothing changes', async () => {
    for (const caller of [reader, stranger]) {
      const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user], tickers: [ticker.user] });
      await addTodoItem(t.db, list);
      const before = await listTablesSnapshot(t.db);
      const response = await caller.browser.post(`/todo/${list.id}/items/add/`, { text: '', assignee: owner.user.username });
      expect(response.statusCode, caller.user.username).toBe(404);
      expect(await listTablesSnapshot(t.db)).toEqual(before);
    }
  });
});

describe('assigning an item in its edit form', () => {
  it('takes a reader of the list', async () => {
    const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user] });
    const item = await addTodoItem(t.db, list, { text: 'Fix the tap' });
    const saved = await owner.browser.post(`/todo/items/${item.id}/edit/`, { text: 'Fix both taps', due_date: '2030-01-02', assignee: reader.user.username });
    expect([saved.statusCode, saved.headers.location]).toEqual([302, `/todo/${list.id}/#item-${item.id}`]);
    expect(await rows().item(item.id)).toMatchObject({ text: 'Fix both taps', due_date: '2030-01-02', assignee_id: reader.user.id });
  });

  it('refuses an assignee who cannot see the list (400, an error summary), nothing changed', async () => {
    const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user] });
    const item = await addTodoItem(t.db, list);
    const outsider = await createUser(t.db);
    const before = await listTablesSnapshot(t.db);
    const response = await owner.browser.post(`/todo/items/${item.id}/edit/`, { text: 'x', assignee: outsider.username });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('data-error-summary');
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });
});

describe('assigning an item through the API', () => {
  it('takes a reader of the list from the owner and a tick user, and refuses anyone else with 400 on assignee', async () => {
    for (const caller of [owner, ticker]) {
      const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user], tickers: [ticker.user] });
      const api = await apiOf(caller);
      const response = await api.post(`/api/v1/todo/${list.id}/items/`, { text: 'Call the plumber', assignee: reader.user.username });
      expect([response.statusCode, response.data.assignee], caller.user.username).toEqual([201, reader.user.username]);
      const refused = await api.post(`/api/v1/todo/${list.id}/items/`, { text: 'Call the plumber', assignee: stranger.user.username });
      expect([refused.statusCode, Object.keys(refused.data.error?.fields ?? {})], caller.user.username).toEqual([400, ['assignee']]);
    }
  });

  it('refuses a user the list is not shared with (400 on assignee), and nothing changes', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Mine' });
    const before = await listTablesSnapshot(t.db);
    const refused = await (await apiOf(owner)).post(`/api/v1/todo/${list.id}/items/`, { text: 'ok', assignee: reader.user.username });
    expect([refused.statusCode, refused.data.error?.code]).toEqual([400, 'invalid']);
    expect(Object.keys(refused.data.error?.fields ?? {})).toContain('assignee');
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
    await rows().unshare(lost.id, reader.user.id);
    const section = (await reader.browser.get('/todo/')).body.split('id="assigned"')[1]!.split('id="mine"')[0]!;
    expect(section).toContain('Prune the roses');
    expect(section).toContain('<time datetime="2030-05-01"');
    expect(section).toContain(`<a href="/todo/${list.id}/">Garden</a>`);
    for (const hidden of ['Rake the leaves', 'Owner job', 'Clear the attic']) expect(section, hidden).not.toContain(hidden);
  });
});

describe('assignees of a list in a group', () => {
  /** The usernames the add form offers, in its order (by username), nobody left out. */
  const offered = (page: string) => [...(page.split('name="assignee"')[1]!.split('</select>')[0]!.matchAll(/<option value="([^"]*)"/g))].map((match) => match[1]);

  it('are everyone who may read it: owner, people shared with, the group’s current members; not a former member nor a stranger', async () => {
    const [member, former] = [await loggedIn(t), await loggedIn(t)];
    const group = await createGroup(t.db, owner.user, [member.user, former.user]);
    await t.db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', former.user.id).execute();
    const list = await createTodoList(t.db, owner.user, { group, group_permission: 'tick', sharedWith: [reader.user] });
    const expected = [owner, member, reader].map((person) => person.user.username).sort();
    for (const viewer of [owner, member]) expect(offered((await viewer.browser.get(`/todo/${list.id}/`)).body), viewer.user.username).toEqual(expected);

    // A member takes one on the page, the owner gives one through the API and on the edit page.
    expect((await member.browser.post(`/todo/${list.id}/items/add/`, { text: 'Bins out', assignee: member.user.username })).statusCode).toBe(302);
    const api = await (await apiOf(owner)).post(`/api/v1/todo/${list.id}/items/`, { text: 'Hoover', assignee: member.user.username });
    expect([api.statusCode, api.data.assignee]).toEqual([201, member.user.username]);
    const [bins] = await rows().items(list.id);
    expect(bins?.assignee_id).toBe(member.user.id);
    expect((await owner.browser.get(`/todo/items/${bins!.id}/edit/`)).body).toContain(`<option value="${member.user.username}" selected`);

    // Their items are in "Assigned to me".
    expect((await member.browser.get('/todo/')).body.split('id="assigned"')[1]!.split('id="mine"')[0]).toContain('Bins out');

    // A former member and a stranger are refused (400), nothing stored.
    const before = await listTablesSnapshot(t.db);
    for (const outsider of [former.user.username, stranger.user.username]) {
      const page = await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Dust', assignee: outsider });
      expect([page.statusCode, page.body.includes(`${outsider} cannot see this list`)], outsider).toEqual([400, true]);
      const refused = await (await apiOf(owner)).post(`/api/v1/todo/${list.id}/items/`, { text: 'Dust', assignee: outsider });
      expect([refused.statusCode, Object.keys(refused.data.error?.fields ?? {})], outsider).toEqual([400, ['assignee']]);
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('come from the group chosen on the new-list page: the new list offers its members at once, a later member too, and leaving takes them off', async () => {
    const [member, later] = [await loggedIn(t), await loggedIn(t)];
    const group = await createGroup(t.db, owner.user, [member.user], 'Household');
    const created = await owner.browser.post('/todo/new/', { title: 'Spring clean', description: '', group: String(group.id), group_permission: 'tick' });
    expect(created.statusCode).toBe(302);
    const listId = Number(/\/todo\/(\d+)\//.exec(String(created.headers.location))![1]);
    expect(offered((await owner.browser.get(`/todo/${listId}/`)).body)).toContain(member.user.username);
    expect(offered((await owner.browser.get(`/todo/${listId}/`)).body)).not.toContain(later.user.username);

    await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: later.user.username });
    expect(offered((await owner.browser.get(`/todo/${listId}/`)).body)).toContain(later.user.username);
    expect((await owner.browser.post(`/todo/${listId}/items/add/`, { text: 'Windows', assignee: later.user.username })).statusCode).toBe(302);

    expect((await later.browser.post(`/groups/${group.id}/leave/`)).statusCode).toBe(302);
    expect(offered((await owner.browser.get(`/todo/${listId}/`)).body)).not.toContain(later.user.username);
    // Their item stays assigned to them, and leaves their "Assigned to me" with the list.
    expect((await later.browser.get('/todo/')).body).not.toContain('Windows');
  });
});

describe('a new to-do list’s page', () => {
  const order = (page: string): [sharing: number, add: number] => [page.indexOf('id="sharing"'), page.indexOf('id="add-item"')];

  it('shows the sharing panel before the add form while the list is empty and only its owner sees it, and after it otherwise', async () => {
    const list = await createTodoList(t.db, owner.user);
    const [sharing, add] = order((await owner.browser.get(`/todo/${list.id}/`)).body);
    expect(sharing).toBeGreaterThan(0);
    expect(sharing).toBeLessThan(add);

    const shared = await createTodoList(t.db, owner.user, { sharedWith: [reader.user] });
    const group = await createGroup(t.db, owner.user, [reader.user]);
    const grouped = await createTodoList(t.db, owner.user, { group });
    const filled = await createTodoList(t.db, owner.user);
    await addTodoItem(t.db, filled);
    for (const other of [shared, grouped, filled]) {
      const [otherSharing, otherAdd] = order((await owner.browser.get(`/todo/${other.id}/`)).body);
      expect(otherAdd, String(other.id)).toBeLessThan(otherSharing);
    }
  });

  it('is made from a form without a group field (title and description only), in no group', async () => {
    const created = await owner.browser.post('/todo/new/', { title: 'Plain', description: 'Just mine' });
    expect(created.statusCode).toBe(302);
    expect(await rows().newestList()).toMatchObject({ title: 'Plain', description: 'Just mine', group_id: null, group_permission: 'read' });
    const list = await rows().newestList();
    const group = await createGroup(t.db, owner.user, [reader.user]);
    await t.db.updateTable('todo_lists').set({ group_id: group.id }).where('id', '=', list.id).execute();
    // An edit posted without it takes the list out of its group, as the shopping list's form does.
    expect((await owner.browser.post(`/todo/${list.id}/edit/`, { title: 'Plain again', description: '' })).statusCode).toBe(302);
    expect(await rows().list(list.id)).toMatchObject({ title: 'Plain again', group_id: null });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../db/schema.js';
import { addTodoItem, ApiClient, buildTestApp, createTodoList, createToken, createUser, listTablesSnapshot, loggedIn, type TestApp, type TestBrowser, todoRows } from '../../../../test/index.js';

// Assignees of to-do items: anyone who may read the list, set on the page, the edit form and
// the API; and "Assigned to me" on /todo/.

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

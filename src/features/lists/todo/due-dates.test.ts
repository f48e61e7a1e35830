import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../db/schema.js';
import { addTodoItem, ApiClient, buildTestApp, createTodoList, createToken, listTablesSnapshot, loggedIn, type TestApp, type TestBrowser, todoRows } from '../../../../test/index.js';
import { todayIn } from '../../../platform/time-zones.js';
import { isValidDueDate } from './dates.js';

// Due dates of to-do items: the dates taken, the order and the overdue mark they give the page,
// and their JSON form.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let api: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
});
afterAll(() => t.close());

describe('a due date', () => {
  it.each([
    ['an impossible day', '2024-02-30'],
    ['a thirteenth month', '2024-13-01'],
    ['a five-digit year', '99999-01-01'],
    ['year zero', '0000-01-01'],
    ['a year far out of range', '3000-01-01'],
    ['words', 'tomorrow'],
    ['another format', '01/02/2024'],
  ])('is refused with %s (400, nothing stored)', async (_case, due_date) => {
    const list = await createTodoList(t.db, owner.user);
    const response = await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Pay rent', due_date });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Enter a real date between 1900-01-01 and 2999-12-31');
    expect(response.body).toContain('value="Pay rent"');
    expect(await todoRows(t.db).items(list.id)).toEqual([]);
  });

  it('may be a leap day, or none', async () => {
    expect(isValidDueDate('2024-02-29')).toBe(true);
    expect(isValidDueDate('2023-02-29')).toBe(false);
    const list = await createTodoList(t.db, owner.user);
    expect((await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Leap', due_date: '2024-02-29' })).statusCode).toBe(302);
    expect((await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Someday' })).statusCode).toBe(302);
  });

  it('is read and refused by the API as YYYY-MM-DD, and nothing changes', async () => {
    const list = await createTodoList(t.db, owner.user);
    await addTodoItem(t.db, list, { text: 'Done one', is_done: 1, position: 0 });
    const open = await addTodoItem(t.db, list, { text: 'Open one', due_date: '2030-01-02', position: 1 });
    const read = await api.get(`/api/v1/todo/${list.id}/`);
    expect(read.data.items?.[0]).toMatchObject({ id: open.id, due_date: '2030-01-02' });
    const before = await listTablesSnapshot(t.db);
    const refused = await api.post(`/api/v1/todo/${list.id}/items/`, { text: 'ok', due_date: '2023-02-30' });
    expect([refused.statusCode, refused.data.error?.code]).toEqual([400, 'invalid']);
    expect(Object.keys(refused.data.error?.fields ?? {})).toContain('due_date');
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });
});

describe('the list page', () => {
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
});

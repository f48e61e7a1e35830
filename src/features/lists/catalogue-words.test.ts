import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, ShoppingItem, ShoppingList, TodoItem, TodoList, User } from '../../db/schema.js';
import { CURRENCIES } from '../accounts/index.js';
import { addShoppingItem, addTodoItem, buildTestApp, createGroup, createShoppingList, createTodoList, expectAllWrapped, loggedIn, shoppingRows, type TestApp, type TestBrowser, todoRows, useMarkedMessages } from '../../../test/index.js';

// The to-do, shopping and sharing pages: every word on them comes from the
// catalogue. User content is wrapped in ⟦ ⟧ by the data itself, or (usernames) named, as are
// the currencies' names, which Intl gives in the page's language (a shopping list's form).

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let reader: { user: User; browser: TestBrowser };
let group: Group;
let todo: TodoList;
let todoItem: TodoItem;
let shopping: ShoppingList;
let shoppingItem: ShoppingItem;
let users: string[];
const currencyNames = new Intl.DisplayNames('en', { type: 'currency' });
const CURRENCY_CHOICES = CURRENCIES.map((code) => `${code} – ${currencyNames.of(code) ?? code}`);

beforeAll(async () => {
  useMarkedMessages();
  t = await buildTestApp();
  owner = await loggedIn(t);
  reader = await loggedIn(t);
  users = [owner.user.username, reader.user.username, ...CURRENCY_CHOICES];
  group = await createGroup(t.db, owner.user, [reader.user], '⟦Flat 3⟧');
  todo = await createTodoList(t.db, owner.user, { title: '⟦Chores⟧', description: '⟦Weekly⟧', tickers: [reader.user] });
  todoItem = await addTodoItem(t.db, todo, { text: '⟦Water the plants⟧', due_date: '2000-01-01', assignee: reader.user });
  await addTodoItem(t.db, todo, { text: '⟦Sweep⟧', is_done: 1 });
  shopping = await createShoppingList(t.db, owner.user, { title: '⟦Groceries⟧', store_name: '⟦Market⟧', group, sharedWith: [reader.user] });
  shoppingItem = await addShoppingItem(t.db, shopping, { name: '⟦Flour⟧', quantity_milli: 1500, unit: '⟦kg⟧', estimated_price_cents: 299 });
  await addShoppingItem(t.db, shopping, { name: '⟦Salt⟧', estimated_price_cents: null });
  await addShoppingItem(t.db, shopping, { name: '⟦Eggs⟧', is_bought: 1 });
  // Done and bought by someone, so that "done by" and "bought by" lines show.
  const who = { createdBy: owner.user.id, doneBy: owner.user.id, at: Date.now() };
  await todoRows(t.db).recordWho(todo.id, who);
  await shoppingRows(t.db).recordWho(shopping.id, who);
});
afterAll(() => t.close());

async function page(browser: TestBrowser, path: string, status = 200) {
  const response = await browser.get(path);
  expect([path, response.statusCode]).toEqual([path, status]);
  return response.body;
}

describe('every to-do page speaks from the catalogue', () => {
  it.each([
    ['/todo/'],
    ['/todo/new/'],
    [() => `/todo/${todo.id}/`],
    [() => `/todo/${todo.id}/edit/`],
    [() => `/todo/${todo.id}/delete/`],
    [() => `/todo/items/${todoItem.id}/edit/`],
    [() => `/todo/items/${todoItem.id}/delete/`],
  ])('the owner’s %s', async (path) => {
    const url = typeof path === 'string' ? path : path();
    expectAllWrapped(url, await page(owner.browser, url), users);
  });

  it('a list page and the index as a shared reader who may tick', async () => {
    expectAllWrapped('/todo/<pk>/ (reader)', await page(reader.browser, `/todo/${todo.id}/`), users);
    expectAllWrapped('/todo/ (reader)', await page(reader.browser, '/todo/'), users);
  });

  it('forms shown again with errors, and a flash after an action', async () => {
    const list = await owner.browser.post('/todo/new/', { title: '', description: '' });
    expectAllWrapped('/todo/new/ (errors)', list.body, users);
    const item = await owner.browser.post(`/todo/${todo.id}/items/add/`, { text: '', due_date: 'soon', assignee: 'nobody-such' });
    expect(item.statusCode).toBe(400);
    expectAllWrapped('/todo/<pk>/items/add/ (errors)', item.body, users);
    const assignee = await owner.browser.post(`/todo/items/${todoItem.id}/edit/`, { text: '⟦Water⟧', due_date: '', assignee: 'nobody-such' });
    expect(assignee.statusCode).toBe(400);
    expectAllWrapped('/todo/items/<pk>/edit/ (errors)', assignee.body, [...users, 'nobody-such']);
    const share = await owner.browser.post(`/todo/${todo.id}/share/`, { action: 'add', username: 'nobody-such', permission: 'read' });
    expectAllWrapped('/todo/<pk>/share/ (errors)', share.body, [...users, 'nobody-such']);
    await owner.browser.post(`/todo/${todo.id}/share/`, { action: 'add', username: reader.user.username, permission: 'tick' });
    expectAllWrapped('/todo/<pk>/ (flash)', await page(owner.browser, `/todo/${todo.id}/`), users);
    const badGroup = await owner.browser.post('/todo/new/', { title: '⟦Errands⟧', description: '', group: 'abc' });
    expect(badGroup.statusCode).toBe(400);
    expectAllWrapped('/todo/new/ (group error)', badGroup.body, users);
    const grouped = await owner.browser.post(`/todo/${todo.id}/edit/`, { title: '⟦Chores⟧', description: '⟦Weekly⟧', group: String(group.id), group_permission: 'read' });
    expect(grouped.statusCode).toBe(302);
    expectAllWrapped('/todo/<pk>/ (in a group, saved flash)', await page(owner.browser, `/todo/${todo.id}/`), users);
    expectAllWrapped('/todo/<pk>/ (in a group, reader)', await page(reader.browser, `/todo/${todo.id}/`), users);
    expectAllWrapped('/todo/<pk>/edit/ (in a group)', await page(owner.browser, `/todo/${todo.id}/edit/`), users);
  });
});

describe('every shopping page speaks from the catalogue', () => {
  it.each([
    ['/shopping/'],
    ['/shopping/new/'],
    [() => `/shopping/${shopping.id}/`],
    [() => `/shopping/${shopping.id}/edit/`],
    [() => `/shopping/${shopping.id}/delete/`],
    [() => `/shopping/${shopping.id}/clear-bought/`],
    [() => `/shopping/items/${shoppingItem.id}/edit/`],
    [() => `/shopping/items/${shoppingItem.id}/delete/`],
  ])('the owner’s %s', async (path) => {
    const url = typeof path === 'string' ? path : path();
    expectAllWrapped(url, await page(owner.browser, url), users);
  });

  it('a list page and the index as a shared reader', async () => {
    expectAllWrapped('/shopping/<pk>/ (reader)', await page(reader.browser, `/shopping/${shopping.id}/`), users);
    expectAllWrapped('/shopping/ (reader)', await page(reader.browser, '/shopping/'), users);
  });

  it('forms shown again with errors, and flashes after actions', async () => {
    const list = await owner.browser.post('/shopping/new/', { title: '', store_name: '', group: 'abc' });
    expectAllWrapped('/shopping/new/ (errors)', list.body, users);
    for (const [quantity, price] of [['-1', 'cheap'], ['1.2345', '1.234'], ['0', '1'.repeat(20)], ['1'.repeat(20), '-2']]) {
      const item = await owner.browser.post(`/shopping/${shopping.id}/items/add/`, { name: '', quantity, unit: '', estimated_price: price });
      expect(item.statusCode).toBe(400);
      expectAllWrapped(`/shopping/<pk>/items/add/ (${quantity}, ${price})`, item.body, users);
    }
    const edit = await owner.browser.post(`/shopping/items/${shoppingItem.id}/edit/`, { name: '⟦Flour⟧', quantity: 'lots', unit: '', estimated_price: '' });
    expectAllWrapped('/shopping/items/<pk>/edit/ (errors)', edit.body, users);
    const share = await owner.browser.post(`/shopping/${shopping.id}/share/`, { action: 'remove', username: owner.user.username });
    expectAllWrapped('/shopping/<pk>/share/ (errors)', share.body, users);
    const grouped = await owner.browser.post(`/shopping/${shopping.id}/edit/`, { title: '⟦Groceries⟧', store_name: '⟦Market⟧', group: String(group.id), group_permission: 'tick' });
    expect(grouped.statusCode).toBe(302);
    expectAllWrapped('/shopping/<pk>/ (in a group, saved flash)', await page(owner.browser, `/shopping/${shopping.id}/`), users);
    await owner.browser.post(`/shopping/${shopping.id}/clear-bought/`);
    expectAllWrapped('/shopping/<pk>/ (cleared flash)', await page(owner.browser, `/shopping/${shopping.id}/`), users);
    await owner.browser.post(`/shopping/items/${shoppingItem.id}/delete/`);
    expectAllWrapped('/shopping/<pk>/ (deleted flash)', await page(owner.browser, `/shopping/${shopping.id}/`), users);
  });
});

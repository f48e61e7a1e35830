import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addShoppingItem, addTodoItem, buildTestApp, createShoppingList, createTodoList, loggedIn, type TestApp } from '../../../test/index.js';

// What a live update needs to show a changed row as a reload would (public/js/live-list.js): each
// row's place in the page's order as text (data-order), due dates written by the server, and
// "Remove bought" only while something is bought.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const orders = (body: string) => [...body.matchAll(/data-order="([^"]*)"/g)].map((match) => match[1]!);
const texts = (body: string, pattern: RegExp) => [...body.matchAll(pattern)].map((match) => match[1]!);

describe('the rows’ data-order', () => {
  it('rises down a to-do list in the page’s own order: open by due date (undated last), then done', async () => {
    const { user, browser } = await loggedIn(t);
    const list = await createTodoList(t.db, user);
    await addTodoItem(t.db, list, { text: 'undated', position: 0 });
    await addTodoItem(t.db, list, { text: 'done late', due_date: '2027-01-01', is_done: 1, position: 1 });
    await addTodoItem(t.db, list, { text: 'due later', due_date: '2026-12-20', position: 2 });
    await addTodoItem(t.db, list, { text: 'done undated', is_done: 1, position: 3 });
    await addTodoItem(t.db, list, { text: 'due soon', due_date: '2026-12-04', position: 4 });
    await addTodoItem(t.db, list, { text: 'also undated', position: 5 });
    const body = (await browser.get(`/todo/${list.id}/`)).body;
    expect(texts(body, /class="item-text">([^<]*)</g)).toEqual(['due soon', 'due later', 'undated', 'also undated', 'done late', 'done undated']);
    const keys = orders(body);
    expect(keys).toHaveLength(6);
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(keys).size).toBe(6);
  });

  it('rises down a shopping list: to buy, then bought, each as added', async () => {
    const { user, browser } = await loggedIn(t);
    const list = await createShoppingList(t.db, user);
    await addShoppingItem(t.db, list, { name: 'Bread', is_bought: 1 });
    await addShoppingItem(t.db, list, { name: 'Pears' });
    await addShoppingItem(t.db, list, { name: 'Milk', is_bought: 1 });
    await addShoppingItem(t.db, list, { name: 'Apples' });
    const body = (await browser.get(`/shopping/${list.id}/`)).body;
    expect(texts(body, /<td><(?:span|del)>([^<]*)<\/(?:span|del)>/g)).toEqual(['Pears', 'Apples', 'Bread', 'Milk']);
    const keys = orders(body);
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(keys).size).toBe(4);
  });
});

describe('a due date', () => {
  it('is written by the server in the page’s language, so a live row reads as the page does', async () => {
    const { user, browser } = await loggedIn(t);
    const list = await createTodoList(t.db, user);
    await addTodoItem(t.db, list, { text: 'Pay the rent', due_date: '2026-12-04' });
    const english = (await browser.get(`/todo/${list.id}/`)).body;
    expect(english).toContain('<time datetime="2026-12-04" data-format="date" data-zone="UTC">4 Dec 2026</time>');
    const ukrainian = (await browser.get(`/todo/${list.id}/`, { headers: { 'accept-language': 'uk' } })).body;
    expect(ukrainian).toMatch(/<time datetime="2026-12-04" data-format="date" data-zone="UTC">4 груд\. 2026/);
  });
});

describe('“Remove bought”', () => {
  it('is hidden while nothing is bought, and there once something is', async () => {
    const { user, browser } = await loggedIn(t);
    const list = await createShoppingList(t.db, user);
    const item = await addShoppingItem(t.db, list, { name: 'Pears' });
    expect((await browser.get(`/shopping/${list.id}/`)).body).toContain('<p data-clear-bought hidden>');
    expect((await browser.post(`/shopping/items/${item.id}/toggle/`)).statusCode).toBe(302);
    const body = (await browser.get(`/shopping/${list.id}/`)).body;
    expect(body).toContain('<p data-clear-bought>');
    expect(body).toContain(`href="/shopping/${list.id}/clear-bought/"`);
  });
});

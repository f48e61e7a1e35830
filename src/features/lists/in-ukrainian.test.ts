import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { addShoppingItem, addTodoItem, ApiClient, buildTestApp, connectChat, createShoppingList, createTodoList, createToken, listen, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

// The lists in Ukrainian: words from the catalogue, numbers as Ukrainian writes and types them
// (`8,69`, `1,5` kg), API messages in Ukrainian with the same English codes, and live rows
// rendered in each viewer's own language.

let t: TestApp;
let address: string;
let owner: { user: User; browser: TestBrowser };
const UK = { headers: { 'accept-language': 'uk' } };
/** Intl's grouping and currency spaces (no-break, narrow no-break) as plain ones. */
const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

beforeAll(async () => {
  t = await buildTestApp();
  address = await listen(t.app);
  owner = await loggedIn(t);
});
afterAll(() => t.close());

describe('a shopping list in Ukrainian', () => {
  it('shows its words, quantities and total the Ukrainian way', async () => {
    const list = await createShoppingList(t.db, owner.user, { title: 'Тиждень' });
    await addShoppingItem(t.db, list, { name: 'Борошно', quantity_milli: 1500, unit: 'кг', estimated_price_cents: 299 });
    await addShoppingItem(t.db, list, { name: 'Сіль', quantity_milli: 2000, estimated_price_cents: 211 });
    await addShoppingItem(t.db, list, { name: 'Яйця', estimated_price_cents: null });
    const page = spaced((await owner.browser.get(`/shopping/${list.id}/`, UK)).body);
    expect(page).toContain('<html lang="uk">');
    // The full header for screen readers and wide windows, a short one a phone shows instead.
    expect(page).toContain('<th scope="col" class="number"><span class="header-full">Кількість</span><span class="header-short" aria-hidden="true">К-сть</span></th>');
    expect(page).toContain('<td class="number">1,5 кг</td>');
    expect(page).toContain('<td class="number">2,99</td>');
    // 1.5 × 2.99 + 2 × 2.11 = 8.705 → 8.71; the unpriced item is left out and said so.
    expect(page).toMatch(/Орієнтовно ще купити на: <strong data-amount="8.71">8,71<\/strong>/);
    expect(page).toContain('(1 пункт без ціни не враховано)');
    expect(page).not.toContain('Estimated total');
  });

  it('shows the total in the list’s currency: 8,69 ₴', async () => {
    const buyer = await loggedIn(t);
    await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', buyer.user.id).execute();
    const list = await createShoppingList(t.db, buyer.user, { currency: 'UAH' });
    await addShoppingItem(t.db, list, { estimated_price_cents: 869 });
    // The user's own setting wins over the browser's English.
    const page = spaced((await buyer.browser.get(`/shopping/${list.id}/`, { headers: { 'accept-language': 'en' } })).body);
    expect(page).toMatch(/<strong data-amount="8.69">8,69 ₴<\/strong>/);
  });

  it('reads `1,5` kg and `2,99` as typed, `1,500` as one and a half, and shows them back with a comma', async () => {
    const list = await createShoppingList(t.db, owner.user);
    const add = (quantity: string, price: string) =>
      owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Цукор', quantity, unit: 'кг', estimated_price: price }, UK);
    expect((await add('1,5', '2,99')).statusCode).toBe(302);
    expect((await add('1,500', '')).statusCode).toBe(302);
    const rows = await t.db.selectFrom('shopping_items').select(['id', 'quantity_milli', 'estimated_price_cents']).where('list_id', '=', list.id).orderBy('id').execute();
    expect(rows.map((row) => [row.quantity_milli, row.estimated_price_cents])).toEqual([[1500, 299], [1500, null]]);
    const edit = (await owner.browser.get(`/shopping/items/${rows[0]!.id}/edit/`, UK)).body;
    expect(edit).toContain('name="quantity" type="text" value="1,5"');
    expect(edit).toContain('name="estimated_price" type="text" value="2,99"');
    // In English `1,500` stays ambiguous, and the edit form shows dots.
    expect((await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Sugar', quantity: '1,500', unit: '', estimated_price: '' })).statusCode).toBe(400);
    expect((await owner.browser.get(`/shopping/items/${rows[0]!.id}/edit/`)).body).toContain('name="quantity" type="text" value="1.5"');
  });

  it('says what is wrong with an item form in Ukrainian, at the field and in the summary', async () => {
    const list = await createShoppingList(t.db, owner.user);
    const response = await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: '', quantity: '0', unit: '', estimated_price: '1,234' }, UK);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('З пунктом щось не так');
    expect(response.body).toContain('Що купити: Введіть, що купити.');
    expect(response.body).toContain('Кількість має бути більшою за нуль.');
    expect(response.body).toContain('Ціна має щонайбільше 2 знаки після коми.');
    expect(response.body).toContain('value="1,234"');
  });
});

describe('the lists API in Ukrainian', () => {
  it('keeps its English codes and says its messages in Ukrainian', async () => {
    const list = await createShoppingList(t.db, owner.user);
    const api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
    const ukrainian = await api.post(`/api/v1/shopping/${list.id}/items/`, { name: 'Хліб', quantity: -1 }, UK);
    const english = await api.post(`/api/v1/shopping/${list.id}/items/`, { name: 'Bread', quantity: -1 });
    expect([ukrainian.statusCode, english.statusCode]).toEqual([400, 400]);
    expect(ukrainian.data.error?.code).toEqual(english.data.error?.code);
    expect(ukrainian.data.error?.fields).toEqual({ quantity: ['Кількість не може бути від’ємною.'] });
    expect(english.data.error?.fields).toEqual({ quantity: ['The quantity cannot be negative.'] });
    const share = await api.post(`/api/v1/shopping/${list.id}/share/`, { username: 'nobody-such', action: 'add' }, UK);
    expect(share.data.error?.code).toBe('invalid');
    expect(share.data.error?.message).toBe('Тіло запиту недійсне.');
    expect(share.data.error?.fields).toEqual({ username: ['Користувача «nobody-such» немає.'] });
  });
});

describe('to-do pages in Ukrainian', () => {
  it('count open items with Ukrainian words and flash in Ukrainian', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Справи' });
    await addTodoItem(t.db, list, { text: 'Полити квіти', due_date: '2000-01-01' });
    const page = (await owner.browser.get(`/todo/${list.id}/`, UK)).body;
    expect(page).toContain('Пункти<span data-live-counts="true"> (1 відкритий з 1)</span>');
    expect(page).toContain('Прострочено');
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: '', due_date: '', assignee: '' }, UK);
    await owner.browser.post(`/todo/${list.id}/edit/`, { title: 'Справи', description: '' }, UK);
    expect((await owner.browser.get(`/todo/${list.id}/`, UK)).body).toContain('Список справ збережено.');
  });
});

describe('a live row', () => {
  it('reaches each viewer in their own language, with the total in the list’s currency whatever their own', async () => {
    const reader = await loggedIn(t);
    await t.db.updateTable('users').set({ language: 'uk', currency: 'EUR' }).where('id', '=', reader.user.id).execute();
    const list = await createShoppingList(t.db, owner.user, { sharedWith: [reader.user], currency: 'UAH' });
    await addShoppingItem(t.db, list, { name: 'Oat milk', quantity_milli: 1500, estimated_price_cents: 579 });
    const path = `/ws/shopping/${list.id}/`;
    const ownerSocket = await connectChat(address, path, { sessionKey: owner.browser.cookies.get('sessionid')! });
    const readerSocket = await connectChat(address, path, { sessionKey: reader.browser.cookies.get('sessionid')! });
    const added = await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Bread', quantity: '2', unit: '', estimated_price: '1.20' });
    expect(added.statusCode).toBe(302);
    const [toReader] = await readerSocket.waitFor((frame) => frame.type === 'item');
    const [toOwner] = await ownerSocket.waitFor((frame) => frame.type === 'item');
    const readerHtml = spaced(String(toReader!.html));
    expect(readerHtml).toContain('<span class="state">Купити</span>');
    expect(readerHtml).toContain('1,20 ₴');
    expect(spaced(String((toReader!.summary as { html: string }).html))).toContain('Орієнтовно ще купити на: <strong data-amount="11.09">11,09 ₴</strong>');
    expect(String(toOwner!.html)).toContain('aria-label="Mark “Bread” as bought"');
    expect(spaced(String((toOwner!.summary as { html: string }).html))).toContain('Estimated total still to buy: <strong data-amount="11.09">UAH 11.09</strong>');
    // The same row the reader's reloaded page shows.
    const page = (await reader.browser.get(`/shopping/${list.id}/`)).body;
    expect(page).toContain(String(toReader!.html));
    ownerSocket.close();
    readerSocket.close();
  });

  it('of a to-do list counts in the viewer’s language', async () => {
    const reader = await loggedIn(t);
    await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', reader.user.id).execute();
    const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user] });
    const item = await addTodoItem(t.db, list, { text: 'Полити квіти' });
    const socket = await connectChat(address, `/ws/todo/${list.id}/`, { sessionKey: reader.browser.cookies.get('sessionid')! });
    await owner.browser.post(`/todo/items/${item.id}/toggle/`);
    const [frame] = await socket.waitFor((candidate) => candidate.type === 'item');
    expect(String(frame!.html)).toContain('<span class="state">Виконано:</span>');
    expect(frame!.summary).toMatchObject({ items: 1, open: 0, counts: ' (0 відкритих з 1)' });
    expect(await t.db.selectFrom('todo_items').select('is_done').where('id', '=', item.id).executeTakeFirstOrThrow()).toEqual({ is_done: 1 });
    socket.close();
  });
});

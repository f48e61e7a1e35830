import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, ShoppingList, User } from '../../../db/schema.js';
import {
  addShoppingItem,
  ApiClient,
  buildTestApp,
  connectChat,
  createGroup,
  createShoppingList,
  createToken,
  listen,
  listTablesSnapshot,
  loggedIn,
  results,
  type TestApp,
  type TestBrowser,
  unzip,
} from '../../../../test/index.js';
import { CURRENCIES } from '../../accounts/index.js';
import { importIntoAccount } from '../../my-data/import-service.js';

// A shopping list has its currency: every reader sees its prices and total in it, each in the
// format of their own language (`UAH 42.50`, `42,50 ₴`), whatever currency their own account
// has. Only the owner changes it; a new list starts in its owner's currency.

type Caller = { user: User; browser: TestBrowser };
let t: TestApp;
let address: string;
let owner: Caller;
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  address = await listen(t.app);
  owner = await loggedIn(t);
  await setUser(owner.user, { currency: 'UAH' });
  group = await createGroup(t.db, owner.user, [], 'Flat 3');
});
afterAll(() => t.close());

/** Intl's grouping and currency spaces (no-break, narrow no-break) as plain ones. */
const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
const INVALID = 'Choose one of the listed currencies, or none.';

async function setUser(user: User, values: { currency?: string; language?: string }) {
  await t.db.updateTable('users').set(values).where('id', '=', user.id).execute();
}

const currencyOf = async (listId: number) => (await t.db.selectFrom('shopping_lists').select('currency').where('id', '=', listId).executeTakeFirstOrThrow()).currency;

/** The owner's list in hryvnias with bread at 42.50, shared with a reader whose own currency is euros. */
async function breadInHryvnias() {
  const reader = await loggedIn(t);
  await setUser(reader.user, { currency: 'EUR' });
  const list = await createShoppingList(t.db, owner.user, { title: 'Market', currency: 'UAH', sharedWith: [reader.user] });
  const bread = await addShoppingItem(t.db, list, { name: 'Bread', estimated_price_cents: 4250 });
  return { list, bread, reader };
}

describe('the form of a shopping list', () => {
  it("offers the account page's currencies, its owner's chosen on a new list, and makes the list in the one sent", async () => {
    const page = (await owner.browser.get('/shopping/new/')).body;
    const select = /<select id="id_currency" name="currency"[^>]*>([\s\S]*?)<\/select>/.exec(page)?.[1] ?? '';
    // An empty attribute is written bare (`<option value>`).
    expect([...select.matchAll(/<option value(?:="([^"]*)")?/g)].map((match) => match[1] ?? '')).toEqual(['', ...CURRENCIES]);
    expect(select).toContain('<option value="UAH" selected>');
    const created = await owner.browser.post('/shopping/new/', { title: 'In euros', store_name: '', group: '', currency: 'EUR' });
    expect(created.statusCode).toBe(302);
    const listId = Number(/\/shopping\/(\d+)\//.exec(created.headers.location as string)?.[1]);
    expect(await currencyOf(listId)).toBe('EUR');
    expect((await owner.browser.get(`/shopping/${listId}/edit/`)).body).toContain('<option value="EUR" selected>');
  });

  it("without a currency field (an older client), makes the list in its owner's, and an edit keeps the list's", async () => {
    const created = await owner.browser.post('/shopping/new/', { title: 'No field', store_name: '', group: '' });
    const listId = Number(/\/shopping\/(\d+)\//.exec(created.headers.location as string)?.[1]);
    expect(await currencyOf(listId)).toBe('UAH');
    await t.db.updateTable('shopping_lists').set({ currency: 'PLN' }).where('id', '=', listId).execute();
    expect((await owner.browser.post(`/shopping/${listId}/edit/`, { title: 'Renamed', store_name: '', group: '' })).statusCode).toBe(302);
    expect(await currencyOf(listId)).toBe('PLN');
  });
});

describe('changing the currency', () => {
  it('is the owner’s, on the edit page and through the API; none is a choice too', async () => {
    const { list } = await breadInHryvnias();
    expect((await owner.browser.post(`/shopping/${list.id}/edit/`, { title: 'Market', store_name: '', group: '', currency: 'EUR' })).statusCode).toBe(302);
    expect(await currencyOf(list.id)).toBe('EUR');
    expect(spaced((await owner.browser.get(`/shopping/${list.id}/`)).body)).toContain('>€42.50</strong>');
    const api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
    expect((await api.patch(`/api/v1/shopping/${list.id}/`, { currency: '' })).data).toMatchObject({ currency: '' });
    expect((await owner.browser.get(`/shopping/${list.id}/`)).body).toContain('>42.50</strong>');
  });

  it('is refused to a tick user, a reader, a member of its group who may tick and a stranger: 404, nothing changed', async () => {
    const [ticker, reader, member, stranger] = [await loggedIn(t), await loggedIn(t), await loggedIn(t), await loggedIn(t)];
    const theirGroup = await createGroup(t.db, owner.user, [member.user], 'Shoppers');
    const list = await createShoppingList(t.db, owner.user, { currency: 'UAH', group: theirGroup, group_permission: 'tick', sharedWith: [reader.user], tickers: [ticker.user] });
    const before = await listTablesSnapshot(t.db);
    for (const caller of [ticker, reader, member, stranger]) {
      const page = await caller.browser.post(`/shopping/${list.id}/edit/`, { title: list.title, store_name: '', group: '', currency: 'EUR' });
      expect(page.statusCode, caller.user.username).toBe(404);
      const api = new ApiClient(t.app, { token: await createToken(t.db, caller.user) });
      expect((await api.patch(`/api/v1/shopping/${list.id}/`, { currency: 'EUR' })).statusCode, caller.user.username).toBe(404);
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('to one not on the list is a 400 form error, on the pages and in the API, and changes nothing', async () => {
    const { list } = await breadInHryvnias();
    const api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
    const before = await listTablesSnapshot(t.db);
    const created = await owner.browser.post('/shopping/new/', { title: 'Bad', store_name: '', group: '', currency: 'XXX' });
    const edited = await owner.browser.post(`/shopping/${list.id}/edit/`, { title: 'Market', store_name: '', group: '', currency: 'usd' });
    for (const response of [created, edited]) {
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(INVALID);
      expect(response.body).toContain('<select id="id_currency" name="currency" aria-invalid="true"');
    }
    for (const response of [await api.post('/api/v1/shopping/', { title: 'Bad', currency: 'XXX' }), await api.patch(`/api/v1/shopping/${list.id}/`, { currency: 'BTC' })]) {
      expect(response.statusCode).toBe(400);
      expect(response.data.error).toMatchObject({ code: 'invalid', fields: { currency: [INVALID] } });
    }
    expect((await api.patch(`/api/v1/shopping/${list.id}/`, { currency: 12 })).statusCode).toBe(400);
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });
});

describe('every reader sees the list’s currency, in their own language’s format', () => {
  it('on the page: the owner, a reader whose own currency differs, a member of its group in Ukrainian', async () => {
    const { list, reader } = await breadInHryvnias();
    const member = await loggedIn(t);
    await setUser(member.user, { currency: 'USD', language: 'uk' });
    const memberGroup = await createGroup(t.db, owner.user, [member.user], 'Neighbours');
    await t.db.updateTable('shopping_lists').set({ group_id: memberGroup.id }).where('id', '=', list.id).execute();
    for (const caller of [owner, reader]) {
      const page = spaced((await caller.browser.get(`/shopping/${list.id}/`)).body);
      expect(page).toContain('<td class="number">UAH 42.50</td>');
      expect(page).toContain('<strong data-amount="42.50">UAH 42.50</strong>');
    }
    const ukrainian = spaced((await member.browser.get(`/shopping/${list.id}/`)).body);
    expect(ukrainian).toContain('<td class="number">42,50 ₴</td>');
    expect(ukrainian).toContain('<strong data-amount="42.50">42,50 ₴</strong>');
    expect(ukrainian).not.toContain('$');
  });

  it('in live rows and totals, rendered once for readers whose own currencies differ', async () => {
    const { list, bread, reader } = await breadInHryvnias();
    const other = await loggedIn(t);
    const ukrainian = await loggedIn(t);
    await setUser(other.user, { currency: 'GBP' });
    await setUser(ukrainian.user, { currency: 'USD', language: 'uk' });
    await t.db.insertInto('shopping_list_shares').values([{ list_id: list.id, user_id: other.user.id }, { list_id: list.id, user_id: ukrainian.user.id }]).execute();
    const path = `/ws/shopping/${list.id}/`;
    const socketOf = (caller: Caller) => connectChat(address, path, { sessionKey: caller.browser.cookies.get('sessionid')! });
    const [readerSocket, otherSocket, ukrainianSocket] = [await socketOf(reader), await socketOf(other), await socketOf(ukrainian)];
    expect((await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Milk', quantity: '2', unit: '', estimated_price: '1.25' })).statusCode).toBe(302);
    const [toReader] = await readerSocket.waitFor((frame) => frame.type === 'item');
    const [toOther] = await otherSocket.waitFor((frame) => frame.type === 'item');
    const [toUkrainian] = await ukrainianSocket.waitFor((frame) => frame.type === 'item');
    // The same frame for both English readers (EUR and GBP of their own): the list's currency.
    expect(toOther).toEqual(toReader);
    expect(spaced(String(toReader!.html))).toContain('<td class="number">UAH 1.25</td>');
    expect(spaced(String((toReader!.summary as { html: string }).html))).toContain('<strong data-amount="45.00">UAH 45.00</strong>');
    expect(spaced(String(toUkrainian!.html))).toContain('<td class="number">1,25 ₴</td>');
    expect(spaced(String((toUkrainian!.summary as { html: string }).html))).toContain('<strong data-amount="45.00">45,00 ₴</strong>');
    // A tick's total, and the removal's, are in it too.
    await owner.browser.post(`/shopping/items/${bread.id}/toggle/`);
    const [, ticked] = await readerSocket.waitFor((frame) => frame.type === 'item', 2);
    expect(spaced(String((ticked!.summary as { html: string }).html))).toContain('>UAH 2.50</strong>');
    await owner.browser.post(`/shopping/items/${bread.id}/delete/`);
    const [removed] = await ukrainianSocket.waitFor((frame) => frame.type === 'removed');
    expect(spaced(String((removed!.summary as { html: string }).html))).toContain('>2,50 ₴</strong>');
    for (const socket of [readerSocket, otherSocket, ukrainianSocket]) socket.close();
  });
});

describe('the API', () => {
  it('round-trips `currency`: created in the one sent (the owner’s without one), read, listed, changed and kept', async () => {
    const api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
    const created = await api.post('/api/v1/shopping/', { title: 'Trip', currency: 'CHF' });
    expect(created.statusCode).toBe(201);
    expect(created.data).toMatchObject({ title: 'Trip', currency: 'CHF' });
    const id = Number(created.data.id);
    expect(await currencyOf(id)).toBe('CHF');
    expect((await api.get(`/api/v1/shopping/${id}/`)).data).toMatchObject({ currency: 'CHF' });
    expect(results(await api.get('/api/v1/shopping/?limit=100')).find((row) => row.id === (id as never))).toMatchObject({ currency: 'CHF' });
    expect((await api.patch(`/api/v1/shopping/${id}/`, { currency: 'PLN' })).data).toMatchObject({ currency: 'PLN' });
    expect((await api.patch(`/api/v1/shopping/${id}/`, { title: 'Trip 2' })).data).toMatchObject({ title: 'Trip 2', currency: 'PLN' });
    const plain = await api.post('/api/v1/shopping/', { title: 'Plain', group: group.id });
    expect(plain.data).toMatchObject({ currency: 'UAH', group: group.id });
  });

  it('shows a reader the list’s currency, not their own', async () => {
    const { list, reader } = await breadInHryvnias();
    const api = new ApiClient(t.app, { token: await createToken(t.db, reader.user) });
    expect((await api.get(`/api/v1/shopping/${list.id}/`)).data).toMatchObject({ currency: 'UAH', estimated_total: '42.50' });
  });
});

describe('an export', () => {
  it('carries the currency of each list, which an import restores; a list from an older export takes the importer’s', async () => {
    const exporter = await loggedIn(t);
    await setUser(exporter.user, { currency: 'EUR' });
    const list: ShoppingList = await createShoppingList(t.db, exporter.user, { title: 'Abroad', currency: 'CZK' });
    await addShoppingItem(t.db, list, { name: 'Beer', estimated_price_cents: 4900 });
    const files = await unzip((await exporter.browser.get('/accounts/export/')).rawPayload);
    const document = files.get('groupnotes.json')!;
    expect(JSON.parse(document).shopping_lists).toEqual([expect.objectContaining({ title: 'Abroad', currency: 'CZK' })]);
    expect(spaced(files.get('Shopping lists/Abroad.md')!)).toContain('CZK 49.00');

    const importer = await loggedIn(t);
    await setUser(importer.user, { currency: 'SEK' });
    await importIntoAccount(t.db, importer.user.id, { document, markdown: [] });
    const older = JSON.parse(document);
    delete older.shopping_lists[0].currency;
    older.shopping_lists[0].title = 'Older';
    await importIntoAccount(t.db, importer.user.id, { document: JSON.stringify(older), markdown: [] });
    const imported = await t.db.selectFrom('shopping_lists').select(['title', 'currency']).where('owner_id', '=', importer.user.id).orderBy('id').execute();
    expect(imported).toEqual([{ title: 'Abroad', currency: 'CZK' }, { title: 'Older', currency: 'SEK' }]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, SharePermission, User } from '../../db/schema.js';
import { type TestApp, TestBrowser, buildTestApp, createGroup, loggedIn } from '../../../test/helpers.js';
import { addShoppingItem, createShoppingList, listTablesSnapshot } from '../../../test/lists.js';

// Issue 22 on shopping lists: editing an item, its delete confirmation and clearing bought items
// are the owner's (anyone else gets the 404 of an absent item); a failed add shows an error
// summary on top and keeps the list's URL; the currency and thousands separators.

type Caller = { user: User; browser: TestBrowser };
type Role = 'owner' | 'tick user' | 'read user' | 'group member' | 'stranger';

let t: TestApp;
let owner: Caller;
let ticker: Caller;
let reader: Caller;
let member: Caller;
let stranger: Caller;
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  [owner, ticker, reader, member, stranger] = [await loggedIn(t), await loggedIn(t), await loggedIn(t), await loggedIn(t), await loggedIn(t)];
  group = await createGroup(t.db, owner.user, [member.user], 'Household');
});
afterAll(() => t.close());

const caller = (role: Role): Caller => ({ owner, 'tick user': ticker, 'read user': reader, 'group member': member, stranger })[role];
const NOT_OWNER: Role[] = ['tick user', 'read user', 'group member', 'stranger'];

async function scenario() {
  const groupPermission: SharePermission = 'tick';
  const list = await createShoppingList(t.db, owner.user, { title: 'Weekly', group, group_permission: groupPermission, sharedWith: [reader.user], tickers: [ticker.user] });
  const item = await addShoppingItem(t.db, list, { name: 'Lemons', quantity_milli: 2000, estimated_price_cents: 30 });
  const bought = await addShoppingItem(t.db, list, { name: 'Milk', is_bought: 1 });
  return { list, item, bought };
}

async function expectRefused(role: Role, act: (ids: { listId: number; itemId: number }) => Promise<{ statusCode: number }>) {
  const { list, item } = await scenario();
  const before = await listTablesSnapshot(t.db);
  expect((await act({ listId: list.id, itemId: item.id })).statusCode, role).toBe(404);
  expect(await listTablesSnapshot(t.db), role).toEqual(before);
}

const itemRow = (id: number) => t.db.selectFrom('shopping_items').selectAll().where('id', '=', id).executeTakeFirst();

describe('editing an item', () => {
  it('is the owner’s: the form shows the item, a save lands back at its row; refused (404) to everyone else, as a missing item', async () => {
    const { list, item } = await scenario();
    const page = await owner.browser.get(`/shopping/items/${item.id}/edit/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('value="Lemons"');
    expect(page.body).toContain('inputmode="decimal"');
    const saved = await owner.browser.post(`/shopping/items/${item.id}/edit/`, { name: 'Limes', quantity: '1,5', unit: 'kg', estimated_price: '2,49' });
    expect([saved.statusCode, saved.headers.location]).toEqual([302, `/shopping/${list.id}/#item-${item.id}`]);
    expect(await itemRow(item.id)).toMatchObject({ name: 'Limes', quantity_milli: 1500, unit: 'kg', estimated_price_cents: 249 });
    for (const role of NOT_OWNER) {
      await expectRefused(role, ({ itemId }) => caller(role).browser.get(`/shopping/items/${itemId}/edit/`));
      await expectRefused(role, ({ itemId }) => caller(role).browser.post(`/shopping/items/${itemId}/edit/`, { name: 'Sneaky' }));
      // An invalid form is the same 404: the permission comes first.
      await expectRefused(role, ({ itemId }) => caller(role).browser.post(`/shopping/items/${itemId}/edit/`, { name: '' }));
    }
    expect((await owner.browser.get('/shopping/items/999999/edit/')).statusCode).toBe(404);
  });

  it('refuses invalid input with 400, messages and an error summary, and changes nothing', async () => {
    const { item } = await scenario();
    const before = await listTablesSnapshot(t.db);
    const response = await owner.browser.post(`/shopping/items/${item.id}/edit/`, { name: '', quantity: 'abc' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('data-error-summary');
    expect(response.body).toContain('href="#id_quantity"');
    expect(response.body).toContain('Enter what to buy.');
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });
});

describe('a failed add', () => {
  it('shows the error summary on top of the list page (400), with the list’s URL to put back; a GET of the add path goes to the list', async () => {
    const { list } = await scenario();
    const before = await listTablesSnapshot(t.db);
    const response = await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Flour', quantity: 'abc' });
    expect(response.statusCode).toBe(400);
    const summary = response.body.indexOf('data-error-summary');
    expect(summary).toBeGreaterThan(0);
    expect(summary).toBeLessThan(response.body.indexOf('<h1>'));
    expect(response.body).toContain(`data-replace-url="/shopping/${list.id}/"`);
    expect(response.body).toContain('aria-invalid="true"');
    expect(await listTablesSnapshot(t.db)).toEqual(before);
    const get = await owner.browser.get(`/shopping/${list.id}/items/add/`);
    expect([get.statusCode, get.headers.location]).toEqual([302, `/shopping/${list.id}/`]);
  });
});

describe('deleting an item', () => {
  it('asks first on GET (one POST form) for the owner; refused (404) to everyone else', async () => {
    const { list, item } = await scenario();
    const page = await owner.browser.get(`/shopping/items/${item.id}/delete/`);
    expect(page.statusCode).toBe(200);
    expect(page.body.match(/<form method="post"/g)?.length).toBe(2); // the page's and the header's logout
    expect(page.body).toContain(`action="/shopping/items/${item.id}/delete/"`);
    expect((await owner.browser.get(`/shopping/${list.id}/`)).body).toMatch(new RegExp(`<a href="/shopping/items/${item.id}/delete/"[^>]*data-confirm`));
    for (const role of NOT_OWNER) await expectRefused(role, ({ itemId }) => caller(role).browser.get(`/shopping/items/${itemId}/delete/`));
  });
});

describe('clearing bought items', () => {
  it('is the owner’s: a confirmation, then the bought items go and the rest stay', async () => {
    const { list, item, bought } = await scenario();
    const page = await owner.browser.get(`/shopping/${list.id}/clear-bought/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('The one bought item goes');
    const cleared = await owner.browser.post(`/shopping/${list.id}/clear-bought/`);
    expect([cleared.statusCode, cleared.headers.location]).toEqual([302, `/shopping/${list.id}/#live-list`]);
    expect(await itemRow(bought.id)).toBeUndefined();
    expect(await itemRow(item.id)).toBeDefined();
  });

  it('is refused (404) to everyone else, nothing deleted', async () => {
    for (const role of NOT_OWNER) {
      await expectRefused(role, ({ listId }) => caller(role).browser.get(`/shopping/${listId}/clear-bought/`));
      await expectRefused(role, ({ listId }) => caller(role).browser.post(`/shopping/${listId}/clear-bought/`));
    }
  });
});

describe('money on the page', () => {
  it('shows prices and totals with thousands separators and the user’s currency', async () => {
    const list = await createShoppingList(t.db, owner.user, { title: 'Big' });
    await addShoppingItem(t.db, list, { name: 'Sofa', quantity_milli: 2000, estimated_price_cents: 123_456 });
    expect((await owner.browser.get(`/shopping/${list.id}/`)).body).toContain('>2,469.12</strong>');
    expect((await owner.browser.post('/accounts/', { email: '', timezone: 'UTC', currency: 'XXX' })).statusCode).toBe(400);
    expect((await owner.browser.post('/accounts/', { email: '', timezone: 'UTC', currency: 'EUR' })).statusCode).toBe(302);
    const body = (await owner.browser.get(`/shopping/${list.id}/`)).body;
    expect(body).toContain('>€2,469.12</strong>');
    expect(body).toContain('€1,234.56');
    await owner.browser.post('/accounts/', { email: '', timezone: 'UTC', currency: '' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../../db/schema.js';
import { addShoppingItem, buildTestApp, createGroup, createShoppingList, loggedIn, shoppingRows, type TestApp, type TestBrowser } from '../../../../test/index.js';

// A shopping list page's estimated total of what is left to buy: exact cents, shown to everyone
// who reads the list, in the list's currency.

type Caller = { user: User; browser: TestBrowser };
let t: TestApp;
let owner: Caller;
let reader: Caller;
let member: Caller;
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  [owner, reader, member] = [await loggedIn(t), await loggedIn(t), await loggedIn(t)];
  group = await createGroup(t.db, owner.user, [member.user], 'Flat 3');
});
afterAll(() => t.close());

const total = (body: string) => /Estimated total still to buy: <strong[^>]*>([^<]*)<\/strong>/.exec(body)?.[1];
const TOTAL_1_20 = 'Estimated total still to buy: <strong data-amount="1.20">1.20</strong>';

/** A list shared with the reader and the group, with 4 lemons at 0.30 to buy. */
async function scenario() {
  const list = await createShoppingList(t.db, owner.user, { title: 'Party', store_name: 'Corner shop', group, sharedWith: [reader.user] });
  const item = await addShoppingItem(t.db, list, { name: 'Lemons', estimated_price_cents: 30, quantity_milli: 4000 });
  return { list, item };
}

describe('the estimated total', () => {
  it('is 0.00 on a new list', async () => {
    const created = await owner.browser.post('/shopping/new/', { title: 'Groceries', store_name: '', group: '' });
    expect(total((await owner.browser.get(created.headers.location as string)).body)).toBe('0.00');
  });

  it('is shown to the owner, a user the list is shared with and a member of its group', async () => {
    const { list } = await scenario();
    for (const caller of [owner, reader, member]) {
      const page = await caller.browser.get(`/shopping/${list.id}/`);
      expect(page.statusCode, caller.user.username).toBe(200);
      expect(page.body, caller.user.username).toContain(TOTAL_1_20);
    }
  });

  it('leaves out an item once it is bought', async () => {
    const { list, item } = await scenario();
    await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Flour', quantity: '1.5', unit: 'kg', estimated_price: '0.80' });
    await owner.browser.post(`/shopping/items/${item.id}/toggle/`);
    // Only the flour is left to buy: 1.5 x 0.80.
    expect((await owner.browser.get(`/shopping/${list.id}/`)).body).toContain(TOTAL_1_20);
  });

  it('adds 0.10 and 0.20 to exactly 0.30', async () => {
    const list = await createShoppingList(t.db, owner.user);
    await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Gum', estimated_price: '0.10' });
    await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Mint', estimated_price: '0.20' });
    expect((await shoppingRows(t.db).items(list.id)).map((item) => item.estimated_price_cents)).toEqual([10, 20]);
    expect(total((await owner.browser.get(`/shopping/${list.id}/`)).body)).toBe('0.30');
  });

  it('multiplies by decimal quantities and leaves out bought and unpriced items', async () => {
    const list = await createShoppingList(t.db, owner.user);
    const add = (form: Record<string, string>) => owner.browser.post(`/shopping/${list.id}/items/add/`, form);
    expect((await add({ name: 'Apples', quantity: '1.5', unit: 'kg', estimated_price: '2.99' })).statusCode).toBe(302);
    expect((await add({ name: 'Eggs', quantity: '12', estimated_price: '0.35' })).statusCode).toBe(302);
    expect((await add({ name: 'Salt', quantity: '', estimated_price: '' })).statusCode).toBe(302);
    await addShoppingItem(t.db, list, { name: 'Wine', estimated_price_cents: 1299, is_bought: 1 });
    const body = (await owner.browser.get(`/shopping/${list.id}/`)).body;
    // 1.5 x 2.99 = 4.485 (kept exact), + 12 x 0.35 = 4.20 -> 8.685, rounded once: 8.69.
    expect(total(body)).toBe('8.69');
    expect(body).toContain('one item has no price');
    expect(body).toContain('1.5 kg');
    expect(body).toContain('<del>Wine</del>');
    const salt = (await shoppingRows(t.db).items(list.id)).find((item) => item.name === 'Salt');
    expect([salt?.quantity_milli, salt?.estimated_price_cents]).toEqual([1000, null]);
  });

  it('shows prices and totals with thousands separators and the list’s currency', async () => {
    const buyer = await loggedIn(t);
    const list = await createShoppingList(t.db, buyer.user, { title: 'Big' });
    await addShoppingItem(t.db, list, { name: 'Sofa', quantity_milli: 2000, estimated_price_cents: 123_456 });
    expect((await buyer.browser.get(`/shopping/${list.id}/`)).body).toContain('>2,469.12</strong>');
    const edit = (currency: string) => buyer.browser.post(`/shopping/${list.id}/edit/`, { title: 'Big', store_name: '', group: '', currency });
    expect((await edit('XXX')).statusCode).toBe(400);
    expect((await edit('EUR')).statusCode).toBe(302);
    const body = (await buyer.browser.get(`/shopping/${list.id}/`)).body;
    expect(body).toContain('>€2,469.12</strong>');
    expect(body).toContain('€1,234.56');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../../db/schema.js';
import { addShoppingItem, buildTestApp, createGroup, createShoppingList, createUser, listTablesSnapshot, loggedIn, shoppingRows, type TestApp, type TestBrowser } from '../../../../test/index.js';

// What only shopping list pages have: a group chosen among the owner's, quantities, units and
// prices checked field by field. What both kinds of list do: ../pages.test.ts.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let myGroup: Group;
let foreignGroup: Group;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  myGroup = await createGroup(t.db, owner.user, [], 'Housemates');
  foreignGroup = await createGroup(t.db, await createUser(t.db), [], 'Not mine');
});
afterAll(() => t.close());

const XSS = '<script>alert("x")</script>';
const rows = () => shoppingRows(t.db);

describe('the group of a new list', () => {
  it('is none for a user in no group, and the form says so', async () => {
    const fresh = await loggedIn(t);
    expect((await fresh.browser.get('/shopping/new/')).body).toContain('You are in no group yet');
  });

  it('may be one the owner belongs to, offered in the form', async () => {
    const form = await owner.browser.get('/shopping/new/');
    expect(form.body).toContain(`<option value="${myGroup.id}">Housemates</option>`);
    expect(form.body).not.toContain('Not mine');
    const response = await owner.browser.post('/shopping/new/', { title: 'Weekend', store_name: 'Market', group: String(myGroup.id) });
    const row = await rows().newestList();
    expect([response.statusCode, response.headers.location]).toEqual([302, `/shopping/${row.id}/`]);
    expect([row.owner_id, row.title, row.store_name, row.group_id]).toEqual([owner.user.id, 'Weekend', 'Market', myGroup.id]);
  });

  it.each([
    ['a group the owner is not in', () => String(foreignGroup.id)],
    ['a group that does not exist', () => '999999'],
    ['a group id that is not a number', () => 'abc'],
    ['a group id out of range', () => '99999999999'],
  ])('refuses %s with a form error (400) and stores nothing', async (_case, group) => {
    const before = await listTablesSnapshot(t.db);
    const response = await owner.browser.post('/shopping/new/', { title: 'Sneaky', store_name: '', group: group() });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Choose one of your groups, or none.');
    expect(response.body).toContain('value="Sneaky"');
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('cannot become a group the owner is not in by an edit', async () => {
    const list = await createShoppingList(t.db, owner.user, { group: myGroup });
    const response = await owner.browser.post(`/shopping/${list.id}/edit/`, { title: 'x', store_name: '', group: String(foreignGroup.id) });
    expect(response.statusCode).toBe(400);
    expect(await rows().list(list.id)).toMatchObject({ title: list.title, group_id: myGroup.id });
  });
});

describe('an item’s fields', () => {
  it.each([
    ['a non-numeric price', { estimated_price: 'cheap' }, 'estimated_price', 'Enter the price as a number, like 2.49.'],
    ['a negative price', { estimated_price: '-0.50' }, 'estimated_price', 'The price cannot be negative.'],
    ['a price with three decimals', { estimated_price: '0.105' }, 'estimated_price', 'The price has at most 2 decimal places.'],
    ['a huge price', { estimated_price: '1'.repeat(300) }, 'estimated_price', 'The price can be at most 1000000.00.'],
    ['scientific notation', { estimated_price: '1e3' }, 'estimated_price', 'Enter the price as a number'],
    ['a non-numeric quantity', { quantity: 'lots' }, 'quantity', 'Enter the quantity as a number, like 2 or 1.5.'],
    ['a negative quantity', { quantity: '-2' }, 'quantity', 'The quantity cannot be negative.'],
    ['a zero quantity', { quantity: '0' }, 'quantity', 'The quantity must be more than zero.'],
    ['a 10,000-character name', { name: 'x'.repeat(10_000) }, 'name', 'Names have at most 200 characters.'],
    ['an empty name', { name: '  ' }, 'name', 'Enter what to buy.'],
    ['a 10,000-character unit', { unit: 'x'.repeat(10_000) }, 'unit', 'Units have at most 30 characters.'],
  ])('refuse %s with a form error next to the field (400, nothing stored)', async (_case, fields, field, message) => {
    const list = await createShoppingList(t.db, owner.user, { title: 'Checked' });
    const response = await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Bread', quantity: '1', estimated_price: '1.00', ...fields });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('<h1>Checked</h1>');
    expect(response.body).toMatch(new RegExp(`<ul id="id_${field}_errors" class="field-errors"><li>[^<]*${message.replace(/[.()]/g, '\\$&')}`));
    expect(await rows().items(list.id)).toEqual([]);
  });

  it('are typed with decimals in the item’s edit form', async () => {
    const list = await createShoppingList(t.db, owner.user);
    const item = await addShoppingItem(t.db, list);
    expect((await owner.browser.get(`/shopping/items/${item.id}/edit/`)).body).toContain('inputmode="decimal"');
  });
});

describe('escaping', () => {
  it('escapes titles, store names, item names, units and group names', async () => {
    const evilGroup = await createGroup(t.db, owner.user, [], XSS);
    const reader = await loggedIn(t);
    const list = await createShoppingList(t.db, owner.user, { title: XSS, store_name: XSS, group: evilGroup, sharedWith: [reader.user] });
    await addShoppingItem(t.db, list, { name: XSS, unit: XSS });
    const pages = [
      await owner.browser.get('/shopping/'),
      await owner.browser.get(`/shopping/${list.id}/`),
      await owner.browser.get(`/shopping/${list.id}/edit/`),
      await owner.browser.get(`/shopping/${list.id}/delete/`),
      await owner.browser.get('/shopping/new/'),
      await reader.browser.get('/shopping/'),
      await reader.browser.get(`/shopping/${list.id}/`),
    ];
    for (const page of pages) {
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain(XSS);
      expect(page.body).toContain('&lt;script>');
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../db/schema.js';
import { type TestApp, type TestBrowser, buildTestApp, createGroup, createUser, loggedIn } from '../../../test/helpers.js';
import { addShoppingItem, createShoppingList, listTablesSnapshot } from '../../../test/lists.js';

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
const total = (body: string) => /Estimated total still to buy: <strong[^>]*>([^<]*)<\/strong>/.exec(body)?.[1];

describe('creating a shopping list', () => {
  it('shows empty states that say what to do next', async () => {
    const fresh = await loggedIn(t);
    const index = await fresh.browser.get('/shopping/');
    expect(index.body).toContain('Create your first shopping list');
    const form = await fresh.browser.get('/shopping/new/');
    expect(form.body).toContain('You are in no group yet');
    const created = await fresh.browser.post('/shopping/new/', { title: 'Groceries', store_name: '', group: '' });
    const page = await fresh.browser.get(created.headers.location as string);
    expect(page.body).toContain('The list is empty. Add the first thing to buy below.');
    expect(total(page.body)).toBe('0.00');
  });

  it('goes to the new list, with a group the owner belongs to', async () => {
    const form = await owner.browser.get('/shopping/new/');
    expect(form.body).toContain(`<option value="${myGroup.id}">Housemates</option>`);
    expect(form.body).not.toContain('Not mine');
    const response = await owner.browser.post('/shopping/new/', { title: 'Weekend', store_name: 'Market', group: String(myGroup.id) });
    const row = await t.db.selectFrom('shopping_lists').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect([response.statusCode, response.headers.location]).toEqual([302, `/shopping/${row.id}/`]);
    expect([row.owner_id, row.title, row.store_name, row.group_id]).toEqual([owner.user.id, 'Weekend', 'Market', myGroup.id]);
  });

  it.each([
    ["a group the owner is not in", () => String(foreignGroup.id)],
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

  it('refuses moving a list into a group the owner is not in', async () => {
    const list = await createShoppingList(t.db, owner.user, { group: myGroup });
    const response = await owner.browser.post(`/shopping/${list.id}/edit/`, { title: 'x', store_name: '', group: String(foreignGroup.id) });
    expect(response.statusCode).toBe(400);
    const row = await t.db.selectFrom('shopping_lists').select(['title', 'group_id']).where('id', '=', list.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ title: list.title, group_id: myGroup.id });
  });

  it('refuses 10,000-character titles and store names', async () => {
    for (const form of [{ title: 'x'.repeat(10_000) }, { title: 'ok', store_name: 'x'.repeat(10_000) }]) {
      expect((await owner.browser.post('/shopping/new/', form)).statusCode).toBe(400);
    }
  });
});

describe('items and the estimated total', () => {
  it('adds 0.10 and 0.20 to exactly 0.30', async () => {
    const list = await createShoppingList(t.db, owner.user);
    await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Gum', estimated_price: '0.10' });
    await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Mint', estimated_price: '0.20' });
    const prices = await t.db.selectFrom('shopping_items').select('estimated_price_cents').where('list_id', '=', list.id).orderBy('id').execute();
    expect(prices).toEqual([{ estimated_price_cents: 10 }, { estimated_price_cents: 20 }]);
    expect(total((await owner.browser.get(`/shopping/${list.id}/`)).body)).toBe('0.30');
  });

  it('multiplies by decimal quantities and leaves out bought items', async () => {
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
    const salt = await t.db.selectFrom('shopping_items').selectAll().where('name', '=', 'Salt').executeTakeFirstOrThrow();
    expect([salt.quantity_milli, salt.estimated_price_cents]).toEqual([1000, null]);
  });

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
  ])('refuses %s with a form error next to the field (400, nothing stored)', async (_case, fields, field, message) => {
    const list = await createShoppingList(t.db, owner.user, { title: 'Checked' });
    const response = await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Bread', quantity: '1', estimated_price: '1.00', ...fields });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('<h1>Checked</h1>');
    expect(response.body).toMatch(new RegExp(`<ul id="id_${field}_errors" class="field-errors"><li>[^<]*${message.replace(/[.()]/g, '\\$&')}`));
    expect(await t.db.selectFrom('shopping_items').select('id').where('list_id', '=', list.id).execute()).toEqual([]);
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../db/schema.js';
import { addShoppingItem, ApiClient, buildTestApp, createGroup, createShoppingList, createToken, createUser, listTablesSnapshot, results, shoppingRows, type TestApp } from '../../../../test/index.js';

// What only the shopping API has: a list's group, quantities and prices as exact decimals, and
// the estimated total. What both kinds of list do: ../api.test.ts.

let t: TestApp;
let owner: User;
let reader: User;
let api: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await createUser(t.db);
  reader = await createUser(t.db);
  api = new ApiClient(t.app, { token: await createToken(t.db, owner) });
});
afterAll(() => t.close());

const rows = () => shoppingRows(t.db);
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

describe('owner of a shopping list', () => {
  it('creates a list for one of their groups: 201 with the object, its Location and a zero total', async () => {
    const group = await createGroup(t.db, owner);
    const response = await api.post('/api/v1/shopping/', { title: 'Weekly', store_name: 'Corner shop', group: group.id, group_permission: 'read' });
    expect(response.statusCode).toBe(201);
    expect(response.headers.location).toBe(`/api/v1/shopping/${response.data.id}/`);
    expect(response.data).toMatchObject({ title: 'Weekly', store_name: 'Corner shop', group: group.id, group_permission: 'read', owner: owner.username });
    expect(response.data).toMatchObject({ shares: [], items: [], estimated_total: '0.00', unpriced_items: 0 });
    expect(await rows().list(Number(response.data.id))).toMatchObject({ owner_id: owner.id, title: 'Weekly', store_name: 'Corner shop', group_id: group.id });
  });

  it('reads a list with its items, to buy first, and the exact total of those not yet bought', async () => {
    const list = await createShoppingList(t.db, owner, { sharedWith: [reader] });
    await addShoppingItem(t.db, list, { name: 'Bought', estimated_price_cents: 500, is_bought: 1 });
    await addShoppingItem(t.db, list, { name: 'Apples', quantity_milli: 1500, unit: 'kg', estimated_price_cents: 10 });
    await addShoppingItem(t.db, list, { name: 'Pears', quantity_milli: 3000, estimated_price_cents: 20 });
    await addShoppingItem(t.db, list, { name: 'Salt', estimated_price_cents: null });
    const response = await api.get(`/api/v1/shopping/${list.id}/`);
    expect(response.statusCode).toBe(200);
    // 1.5 x 0.10 + 3 x 0.20 = 0.75 exactly; the bought item and the unpriced one are left out.
    expect([response.data.estimated_total, response.data.unpriced_items]).toEqual(['0.75', 1]);
    expect((response.data.items as unknown as { name: string }[]).map((item) => item.name)).toEqual(['Apples', 'Pears', 'Salt', 'Bought']);
    expect(response.data.items?.[0]).toMatchObject({ list: list.id, quantity: '1.5', unit: 'kg', estimated_price: '0.10', is_bought: false });
    expect(response.data.shares).toEqual([{ username: reader.username, permission: 'read' }]);
    const listed = results(await api.get('/api/v1/shopping/?limit=100')).find((row) => row.id === (list.id as never));
    expect(listed).toMatchObject({ estimated_total: '0.75', unpriced_items: 1 });
    expect(listed).not.toHaveProperty('items');
  });

  it('takes the list out of its group with null, keeping the other fields', async () => {
    const group = await createGroup(t.db, owner);
    const list = await createShoppingList(t.db, owner, { title: 'Old', store_name: 'Kept', group });
    const renamed = await api.patch(`/api/v1/shopping/${list.id}/`, { title: 'New' });
    expect(renamed.data).toMatchObject({ title: 'New', store_name: 'Kept', group: group.id });
    const ungrouped = await api.patch(`/api/v1/shopping/${list.id}/`, { group: null });
    expect(ungrouped.data).toMatchObject({ title: 'New', group: null, group_permission: null });
    expect(await rows().list(list.id)).toMatchObject({ title: 'New', store_name: 'Kept', group_id: null });
  });

  it('adds items priced exactly from text or number, 1 of no unit and no price by default; a bought item leaves the total', async () => {
    const list = await createShoppingList(t.db, owner);
    const added = await api.post(`/api/v1/shopping/${list.id}/items/`, { name: 'Rice', quantity: 2.5, unit: 'kg', estimated_price: '0.10' });
    expect(await rows().item(Number(added.data.id))).toMatchObject({ quantity_milli: 2500, estimated_price_cents: 10 });
    const plain = await api.post(`/api/v1/shopping/${list.id}/items/`, { name: 'Bread' });
    expect(plain.data).toMatchObject({ quantity: '1', unit: '', estimated_price: null });
    expect((await api.patch(`/api/v1/shopping/items/${added.data.id}/`, { is_bought: true })).statusCode).toBe(200);
    expect((await api.get(`/api/v1/shopping/${list.id}/`)).data).toMatchObject({ estimated_total: '0.00', unpriced_items: 1 });
    expect((await api.delete(`/api/v1/shopping/items/${added.data.id}/`)).statusCode).toBe(204);
    expect((await rows().items(list.id)).map((item) => item.name)).toEqual(['Bread']);
  });
});

describe('invalid bodies', () => {
  it('answer 400 with messages per field, and change nothing', async () => {
    const strangersGroup = await createGroup(t.db, reader);
    const list = await createShoppingList(t.db, owner);
    const add = `/api/v1/shopping/${list.id}/items/`;
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/v1/shopping/', { title: 'ok', store_name: 's'.repeat(201) }, 'store_name'],
      ['POST', '/api/v1/shopping/', { title: 'ok', group: strangersGroup.id }, 'group'],
      ['POST', '/api/v1/shopping/', { title: 'ok', group: '1' }, 'group'],
      ['POST', '/api/v1/shopping/', { title: 'ok', group: 99999999999 }, 'group'],
      ['POST', '/api/v1/shopping/', { title: 'ok', group: strangersGroup.id, group_permission: 'sell' }, 'group_permission'],
      ['PATCH', `/api/v1/shopping/${list.id}/`, { group: strangersGroup.id }, 'group'],
      ['POST', add, { name: 'ok', quantity: 0 }, 'quantity'],
      ['POST', add, { name: 'ok', quantity: '-1' }, 'quantity'],
      ['POST', add, { name: 'ok', quantity: 1e21 }, 'quantity'],
      ['POST', add, { name: 'ok', quantity: '1.2345' }, 'quantity'],
      ['POST', add, { name: 'ok', estimated_price: '2.499' }, 'estimated_price'],
      ['POST', add, { name: 'ok', estimated_price: 1_000_000.01 }, 'estimated_price'],
      ['POST', add, { name: 'ok', estimated_price: true }, 'estimated_price'],
      ['POST', add, { name: 'ok', unit: 'u'.repeat(31) }, 'unit'],
    ];
    const before = await listTablesSnapshot(t.db);
    for (const [method, path, body, field] of cases) {
      const response = await api.request(method, path, { body });
      const label = `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`;
      expect(response.statusCode, label).toBe(400);
      expect(response.data.error?.code, label).toBe('invalid');
      expect(Object.keys(response.data.error?.fields ?? {}), label).toContain(field);
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('uses the forms’ words', async () => {
    const list = await createShoppingList(t.db, owner);
    const response = await api.post(`/api/v1/shopping/${list.id}/items/`, { name: 'ok', quantity: '-2' });
    expect(response.data.error?.fields).toEqual({ quantity: ['The quantity cannot be negative.'] });
  });
});

describe('paging', () => {
  it('pages through the lists the user reads, own and of their groups, with next', async () => {
    const user = await createUser(t.db);
    const client = new ApiClient(t.app, { token: await createToken(t.db, user) });
    const group = await createGroup(t.db, owner, [user]);
    const ids = [(await createShoppingList(t.db, user)).id, (await createShoppingList(t.db, owner, { group })).id, (await createShoppingList(t.db, user)).id];
    await rows().setUpdatedAt(ids, 1_000);
    const first = await client.get('/api/v1/shopping/?limit=2');
    expect(results(first).map((list) => list.id)).toEqual([ids[2], ids[1]]);
    const second = await client.get(pathOf(String(first.data.next)));
    expect(results(second).map((list) => list.id)).toEqual([ids[0]]);
    expect(second.data.next).toBeNull();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { ApiClient, createToken, results } from '../../../test/api.js';
import { type TestApp, type TestBrowser, buildTestApp, createGroup, createUser, loggedIn } from '../../../test/helpers.js';
import { addShoppingItem, createShoppingList, listTablesSnapshot } from '../../../test/lists.js';

// The owner's use of the shopping API, its validation, money, paging and ETags. Who else may do
// what: api-permissions.test.ts.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let reader: User;
let api: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  reader = await createUser(t.db);
  api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
});
afterAll(() => t.close());

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

describe('owner of a shopping list', () => {
  it('creates a list for one of their groups: 201 with the object and its Location', async () => {
    const group = await createGroup(t.db, owner.user);
    const response = await api.post('/api/v1/shopping/', { title: 'Weekly', store_name: 'Corner shop', group: group.id, group_permission: 'read' });
    expect(response.statusCode).toBe(201);
    expect(response.headers.location).toBe(`/api/v1/shopping/${response.data.id}/`);
    expect(response.data).toMatchObject({ title: 'Weekly', store_name: 'Corner shop', group: group.id, group_permission: 'read', owner: owner.user.username });
    expect(response.data).toMatchObject({ shares: [], items: [], estimated_total: '0.00', unpriced_items: 0 });
    const row = await t.db.selectFrom('shopping_lists').selectAll().where('id', '=', Number(response.data.id)).executeTakeFirstOrThrow();
    expect([row.owner_id, row.title, row.store_name, row.group_id]).toEqual([owner.user.id, 'Weekly', 'Corner shop', group.id]);
  });

  it('reads a list with its items, to buy first, and the exact total of those not yet bought', async () => {
    const list = await createShoppingList(t.db, owner.user, { sharedWith: [reader] });
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

  it('changes only the fields sent, and takes the list out of its group with null', async () => {
    const group = await createGroup(t.db, owner.user);
    const list = await createShoppingList(t.db, owner.user, { title: 'Old', store_name: 'Kept', group });
    const renamed = await api.patch(`/api/v1/shopping/${list.id}/`, { title: 'New' });
    expect(renamed.data).toMatchObject({ title: 'New', store_name: 'Kept', group: group.id });
    const ungrouped = await api.patch(`/api/v1/shopping/${list.id}/`, { group: null });
    expect(ungrouped.data).toMatchObject({ title: 'New', group: null, group_permission: null });
    const row = await t.db.selectFrom('shopping_lists').selectAll().where('id', '=', list.id).executeTakeFirstOrThrow();
    expect([row.title, row.store_name, row.group_id]).toEqual(['New', 'Kept', null]);
  });

  it('adds an item (201, Location readable), prices exact from text or number, marks it bought and deletes it', async () => {
    const list = await createShoppingList(t.db, owner.user);
    const added = await api.post(`/api/v1/shopping/${list.id}/items/`, { name: 'Rice', quantity: 2.5, unit: 'kg', estimated_price: '0.10' });
    expect(added.statusCode).toBe(201);
    expect(added.data).toMatchObject({ list: list.id, name: 'Rice', quantity: '2.5', unit: 'kg', estimated_price: '0.10', is_bought: false });
    expect((await api.get(added.headers.location as string)).data).toEqual(added.data);
    const row = await t.db.selectFrom('shopping_items').selectAll().where('id', '=', Number(added.data.id)).executeTakeFirstOrThrow();
    expect([row.quantity_milli, row.estimated_price_cents]).toEqual([2500, 10]);
    const plain = await api.post(`/api/v1/shopping/${list.id}/items/`, { name: 'Bread' });
    expect(plain.data).toMatchObject({ quantity: '1', unit: '', estimated_price: null });
    const item = `/api/v1/shopping/items/${added.data.id}/`;
    for (let i = 0; i < 2; i++) expect((await api.patch(item, { is_bought: true })).data.is_bought).toBe(true);
    expect((await api.get(`/api/v1/shopping/${list.id}/`)).data).toMatchObject({ estimated_total: '0.00', unpriced_items: 1 });
    expect((await api.patch(item, { is_bought: false })).data.is_bought).toBe(false);
    expect((await api.delete(item)).statusCode).toBe(204);
    expect(await t.db.selectFrom('shopping_items').select('name').where('list_id', '=', list.id).execute()).toEqual([{ name: 'Bread' }]);
  });

  it('shares by username, which notifies the user once, and stops sharing', async () => {
    const list = await createShoppingList(t.db, owner.user, { title: 'Party' });
    const friend = await createUser(t.db);
    for (let i = 0; i < 2; i++) {
      const added = await api.post(`/api/v1/shopping/${list.id}/share/`, { username: friend.username, action: 'add' });
      expect([added.statusCode, added.data.shares]).toEqual([200, [{ username: friend.username, permission: 'read' }]]);
    }
    const notices = await t.db.selectFrom('notifications').select(['kind', 'link']).where('user_id', '=', friend.id).execute();
    expect(notices).toEqual([{ kind: 'list.shared', link: `/shopping/${list.id}/` }]);
    const removed = await api.post(`/api/v1/shopping/${list.id}/share/`, { username: friend.username, action: 'remove' });
    expect([removed.statusCode, removed.data.shares]).toEqual([200, []]);
  });

  it('deletes a list with its items and shares', async () => {
    const list = await createShoppingList(t.db, owner.user, { sharedWith: [reader] });
    await addShoppingItem(t.db, list);
    expect((await api.delete(`/api/v1/shopping/${list.id}/`)).statusCode).toBe(204);
    expect(await t.db.selectFrom('shopping_lists').select('id').where('id', '=', list.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('shopping_items').select('id').where('list_id', '=', list.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('shopping_list_shares').select('user_id').where('list_id', '=', list.id).execute()).toEqual([]);
  });
});

describe('invalid bodies', () => {
  it('answer 400 with messages per field, and change nothing', async () => {
    const strangersGroup = await createGroup(t.db, reader);
    const list = await createShoppingList(t.db, owner.user);
    const item = await addShoppingItem(t.db, list);
    const add = `/api/v1/shopping/${list.id}/items/`;
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/v1/shopping/', { title: '' }, 'title'],
      ['POST', '/api/v1/shopping/', { title: 'ok', store_name: 's'.repeat(201) }, 'store_name'],
      ['POST', '/api/v1/shopping/', { title: 'ok', group: strangersGroup.id }, 'group'],
      ['POST', '/api/v1/shopping/', { title: 'ok', group: '1' }, 'group'],
      ['POST', '/api/v1/shopping/', { title: 'ok', group: 99999999999 }, 'group'],
      ['POST', '/api/v1/shopping/', { title: 'ok', group: strangersGroup.id, group_permission: 'sell' }, 'group_permission'],
      ['PATCH', `/api/v1/shopping/${list.id}/`, { group: strangersGroup.id }, 'group'],
      ['PATCH', `/api/v1/shopping/${list.id}/`, { owner: reader.username }, '__all__'],
      ['POST', add, { name: '' }, 'name'],
      ['POST', add, { name: 'ok', quantity: 0 }, 'quantity'],
      ['POST', add, { name: 'ok', quantity: '-1' }, 'quantity'],
      ['POST', add, { name: 'ok', quantity: 1e21 }, 'quantity'],
      ['POST', add, { name: 'ok', quantity: '1.2345' }, 'quantity'],
      ['POST', add, { name: 'ok', estimated_price: '2.499' }, 'estimated_price'],
      ['POST', add, { name: 'ok', estimated_price: 1_000_000.01 }, 'estimated_price'],
      ['POST', add, { name: 'ok', estimated_price: true }, 'estimated_price'],
      ['POST', add, { name: 'ok', unit: 'u'.repeat(31) }, 'unit'],
      ['PATCH', `/api/v1/shopping/items/${item.id}/`, { is_bought: 1 }, 'is_bought'],
      ['POST', `/api/v1/shopping/${list.id}/share/`, { username: 'nobody-by-this-name', action: 'add' }, 'username'],
      ['POST', `/api/v1/shopping/${list.id}/share/`, { username: reader.username, action: 'add', permission: 'write' }, 'permission'],
    ];
    const before = await listTablesSnapshot(t.db);
    for (const [method, path, body, field] of cases) {
      const response = await api.request(method, path, { body });
      const label = `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`;
      expect(response.statusCode, label).toBe(400);
      expect(Object.keys(response.data.error?.fields ?? {}), label).toContain(field);
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('uses the forms’ words', async () => {
    const list = await createShoppingList(t.db, owner.user);
    const response = await api.post(`/api/v1/shopping/${list.id}/items/`, { name: 'ok', quantity: '-2' });
    expect(response.data.error?.fields).toEqual({ quantity: ['The quantity cannot be negative.'] });
  });
});

describe('paging', () => {
  it('pages through the lists the user reads, own and of their groups, with next', async () => {
    const user = await createUser(t.db);
    const client = new ApiClient(t.app, { token: await createToken(t.db, user) });
    const group = await createGroup(t.db, owner.user, [user]);
    const ids = [(await createShoppingList(t.db, user)).id, (await createShoppingList(t.db, owner.user, { group })).id, (await createShoppingList(t.db, user)).id];
    await t.db.updateTable('shopping_lists').set({ updated_at: 1_000 }).where('id', 'in', ids).execute();
    const first = await client.get('/api/v1/shopping/?limit=2');
    expect(results(first).map((list) => list.id)).toEqual([ids[2], ids[1]]);
    const second = await client.get(pathOf(String(first.data.next)));
    expect(results(second).map((list) => list.id)).toEqual([ids[0]]);
    expect(second.data.next).toBeNull();
    expect((await client.get('/api/v1/shopping/?cursor=not-ours')).statusCode).toBe(400);
  });
});

describe('ETags', () => {
  it('answer 304 to If-None-Match with the current ETag', async () => {
    const list = await createShoppingList(t.db, owner.user);
    const etag = String((await api.get(`/api/v1/shopping/${list.id}/`)).headers.etag);
    expect((await api.get(`/api/v1/shopping/${list.id}/`, { headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    await addShoppingItem(t.db, list);
    expect((await api.get(`/api/v1/shopping/${list.id}/`, { headers: { 'if-none-match': etag } })).statusCode).toBe(200);
  });

  it('refuse a PATCH with an old ETag (412, nothing changed) and take one with the new', async () => {
    const list = await createShoppingList(t.db, owner.user, { title: 'Start' });
    const old = String((await api.get(`/api/v1/shopping/${list.id}/`)).headers.etag);
    expect((await owner.browser.post(`/shopping/${list.id}/edit/`, { title: 'From the page', store_name: '', group: '' })).statusCode).toBe(302);
    const refused = await api.patch(`/api/v1/shopping/${list.id}/`, { title: 'From the API' }, { headers: { 'if-match': old } });
    expect([refused.statusCode, refused.data.error?.code]).toEqual([412, 'precondition_failed']);
    expect((await t.db.selectFrom('shopping_lists').select('title').where('id', '=', list.id).executeTakeFirstOrThrow()).title).toBe('From the page');
    const fresh = String((await api.get(`/api/v1/shopping/${list.id}/`)).headers.etag);
    expect((await api.patch(`/api/v1/shopping/${list.id}/`, { title: 'From the API' }, { headers: { 'if-match': fresh } })).statusCode).toBe(200);
  });

  it('let only one of two PATCHes made with the same ETag through', async () => {
    const list = await createShoppingList(t.db, owner.user);
    const etag = String((await api.get(`/api/v1/shopping/${list.id}/`)).headers.etag);
    const answers = await Promise.all(['One', 'Two'].map((title) => api.patch(`/api/v1/shopping/${list.id}/`, { title }, { headers: { 'if-match': etag } })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 412]);
  });

  it('refuse marking an item with an old ETag', async () => {
    const list = await createShoppingList(t.db, owner.user);
    const item = await addShoppingItem(t.db, list);
    const old = String((await api.get(`/api/v1/shopping/items/${item.id}/`)).headers.etag);
    expect((await owner.browser.post(`/shopping/items/${item.id}/toggle/`)).statusCode).toBe(302);
    expect((await api.patch(`/api/v1/shopping/items/${item.id}/`, { is_bought: false }, { headers: { 'if-match': old } })).statusCode).toBe(412);
    expect((await t.db.selectFrom('shopping_items').select('is_bought').where('id', '=', item.id).executeTakeFirstOrThrow()).is_bought).toBe(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../db/schema.js';
import { type TestApp, TestBrowser, buildTestApp, createGroup, createUser, loggedIn } from '../../../test/helpers.js';
import { addShoppingItem, createShoppingList, listTablesSnapshot } from '../../../test/lists.js';

type Caller = { user: User; browser: TestBrowser };
let t: TestApp;
let owner: Caller;
let reader: Caller;
let member: Caller;
let stranger: Caller;
let other: User;
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  reader = await loggedIn(t);
  member = await loggedIn(t);
  stranger = await loggedIn(t);
  other = await createUser(t.db);
  group = await createGroup(t.db, owner.user, [member.user], 'Flat 3');
});
afterAll(() => t.close());

/** A fresh list of the owner's, shared with the reader and with the group, with one item to buy. */
async function scenario() {
  const list = await createShoppingList(t.db, owner.user, { title: 'Party', store_name: 'Corner shop', group, sharedWith: [reader.user] });
  const item = await addShoppingItem(t.db, list, { name: 'Lemons', estimated_price_cents: 30, quantity_milli: 4000 });
  return { list, item };
}

function changes(listId: number, itemId: number): [string, string, Record<string, string>][] {
  return [
    ['GET', `/shopping/${listId}/edit/`, {}],
    ['POST', `/shopping/${listId}/edit/`, { title: 'Taken over', store_name: '', group: '' }],
    ['GET', `/shopping/${listId}/delete/`, {}],
    ['POST', `/shopping/${listId}/delete/`, {}],
    ['POST', `/shopping/${listId}/share/`, { username: other.username, action: 'add' }],
    ['POST', `/shopping/${listId}/share/`, { username: reader.user.username, action: 'remove' }],
    ['POST', `/shopping/${listId}/items/add/`, { name: 'Sneaky', quantity: '1', unit: '', estimated_price: '1.00' }],
    ['POST', `/shopping/${listId}/items/add/`, { name: '', quantity: '-1', unit: '', estimated_price: 'x' }],
    ['POST', `/shopping/items/${itemId}/toggle/`, {}],
    ['POST', `/shopping/items/${itemId}/delete/`, {}],
  ];
}

async function expectEveryChangeRefused(caller: Caller) {
  const { list, item } = await scenario();
  const before = await listTablesSnapshot(t.db);
  for (const [method, path, form] of changes(list.id, item.id)) {
    const response = method === 'GET' ? await caller.browser.get(path) : await caller.browser.post(path, form);
    expect(response.statusCode, `${method} ${path}`).toBe(404);
  }
  expect(await listTablesSnapshot(t.db)).toEqual(before);
}

async function expectReadOnlyPage(caller: Caller, listId: number) {
  const page = await caller.browser.get(`/shopping/${listId}/`);
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('Lemons');
  expect(page.body).toContain('Estimated total still to buy: <strong data-amount="1.20">1.20</strong>');
  for (const control of ['/edit/', '/delete/', '/share/', '/items/add/', '/toggle/']) expect(page.body).not.toContain(control);
}

describe('owner of a shopping list', () => {
  it('sees it under "Mine" and reads it with edit controls and the total', async () => {
    const { list } = await scenario();
    const mine = (await owner.browser.get('/shopping/')).body.split('id="shared"')[0]!;
    expect(mine).toContain(`href="/shopping/${list.id}/"`);
    expect(mine).toContain('Corner shop · 1 to buy · shared with 1 person · group <strong>Flat 3</strong>');
    const page = await owner.browser.get(`/shopping/${list.id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`action="/shopping/${list.id}/items/add/"`);
    expect(page.body).toContain('Estimated total still to buy: <strong data-amount="1.20">1.20</strong>');
  });

  it('edits title, store and group', async () => {
    const { list } = await scenario();
    expect((await owner.browser.get(`/shopping/${list.id}/edit/`)).statusCode).toBe(200);
    const response = await owner.browser.post(`/shopping/${list.id}/edit/`, { title: 'Picnic', store_name: 'Market', group: '' });
    expect([response.statusCode, response.headers.location]).toEqual([302, `/shopping/${list.id}/`]);
    const row = await t.db.selectFrom('shopping_lists').selectAll().where('id', '=', list.id).executeTakeFirstOrThrow();
    expect([row.title, row.store_name, row.group_id]).toEqual(['Picnic', 'Market', null]);
  });

  it('confirms, then deletes the list with its items and shares', async () => {
    const { list } = await scenario();
    expect((await owner.browser.get(`/shopping/${list.id}/delete/`)).body).toContain(`action="/shopping/${list.id}/delete/"`);
    const response = await owner.browser.post(`/shopping/${list.id}/delete/`);
    expect([response.statusCode, response.headers.location]).toEqual([302, '/shopping/']);
    expect(await t.db.selectFrom('shopping_items').select('id').where('list_id', '=', list.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('shopping_list_shares').select('user_id').where('list_id', '=', list.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('shopping_lists').select('id').where('id', '=', list.id).execute()).toEqual([]);
  });

  it('shares by username and removes the share', async () => {
    const { list } = await scenario();
    const shared = async () => (await t.db.selectFrom('shopping_list_shares').select('user_id').where('list_id', '=', list.id).orderBy('user_id').execute()).map((r) => r.user_id);
    expect((await owner.browser.post(`/shopping/${list.id}/share/`, { username: other.username, action: 'add' })).statusCode).toBe(302);
    expect(await shared()).toEqual([reader.user.id, other.id]);
    expect((await owner.browser.post(`/shopping/${list.id}/share/`, { username: other.username, action: 'remove' })).statusCode).toBe(302);
    expect(await shared()).toEqual([reader.user.id]);
  });

  it('adds, marks bought and deletes items, each time back to the list', async () => {
    const { list, item } = await scenario();
    const added = await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Flour', quantity: '1.5', unit: 'kg', estimated_price: '0.80' });
    expect([added.statusCode, added.headers.location]).toEqual([302, `/shopping/${list.id}/#add-item`]);
    const flour = await t.db.selectFrom('shopping_items').selectAll().where('name', '=', 'Flour').executeTakeFirstOrThrow();
    expect([flour.quantity_milli, flour.unit, flour.estimated_price_cents, flour.is_bought]).toEqual([1500, 'kg', 80, 0]);

    const toggled = await owner.browser.post(`/shopping/items/${item.id}/toggle/`);
    expect([toggled.statusCode, toggled.headers.location]).toEqual([302, `/shopping/${list.id}/#item-${item.id}`]);
    const bought = await t.db.selectFrom('shopping_items').select('is_bought').where('id', '=', item.id).executeTakeFirstOrThrow();
    expect(bought.is_bought).toBe(1);
    // Only the flour is left to buy: 1.5 x 0.80.
    expect((await owner.browser.get(`/shopping/${list.id}/`)).body).toContain('Estimated total still to buy: <strong data-amount="1.20">1.20</strong>');

    const deleted = await owner.browser.post(`/shopping/items/${item.id}/delete/`);
    expect([deleted.statusCode, deleted.headers.location]).toEqual([302, `/shopping/${list.id}/#live-list`]);
    expect(await t.db.selectFrom('shopping_items').select('id').where('id', '=', item.id).execute()).toEqual([]);
  });
});

describe('user the list is shared with', () => {
  it('sees it under "Shared with me" with the owner and group, and reads it without edit controls', async () => {
    const { list } = await scenario();
    const [mine, shared] = (await reader.browser.get('/shopping/')).body.split('id="shared"') as [string, string];
    expect(mine).not.toContain(`href="/shopping/${list.id}/"`);
    expect(shared).toContain(`href="/shopping/${list.id}/"`);
    expect(shared).toContain(owner.user.username);
    await expectReadOnlyPage(reader, list.id);
  });

  it('gets 404 for every change, and nothing changes', () => expectEveryChangeRefused(reader));

  it('loses access at once when the owner removes them', async () => {
    const list = await createShoppingList(t.db, owner.user, { sharedWith: [reader.user] });
    expect((await reader.browser.get(`/shopping/${list.id}/`)).statusCode).toBe(200);
    await owner.browser.post(`/shopping/${list.id}/share/`, { username: reader.user.username, action: 'remove' });
    expect((await reader.browser.get(`/shopping/${list.id}/`)).statusCode).toBe(404);
    expect((await reader.browser.get('/shopping/')).body).not.toContain(`href="/shopping/${list.id}/"`);
  });
});

describe('member of the list\'s group', () => {
  it('sees it under "Shared with me" naming the group, and reads it without edit controls', async () => {
    const { list } = await scenario();
    const shared = (await member.browser.get('/shopping/')).body.split('id="shared"')[1]!;
    expect(shared).toContain(`href="/shopping/${list.id}/"`);
    expect(shared).toContain('Flat 3');
    await expectReadOnlyPage(member, list.id);
  });

  it('gets 404 for every change, and nothing changes', () => expectEveryChangeRefused(member));

  it('loses access when the list leaves the group, and when the group is deleted', async () => {
    const { list } = await scenario();
    await owner.browser.post(`/shopping/${list.id}/edit/`, { title: 'Party', store_name: '', group: '' });
    expect((await member.browser.get(`/shopping/${list.id}/`)).statusCode).toBe(404);

    const another = await createGroup(t.db, owner.user, [member.user]);
    const grouped = await createShoppingList(t.db, owner.user, { group: another });
    expect((await member.browser.get(`/shopping/${grouped.id}/`)).statusCode).toBe(200);
    await t.db.deleteFrom('groups').where('id', '=', another.id).execute();
    expect((await member.browser.get(`/shopping/${grouped.id}/`)).statusCode).toBe(404);
    const kept = await t.db.selectFrom('shopping_lists').select(['owner_id', 'group_id']).where('id', '=', grouped.id).executeTakeFirstOrThrow();
    expect(kept).toEqual({ owner_id: owner.user.id, group_id: null });
  });
});

describe('stranger', () => {
  it('does not see the list and gets 404 for reading it', async () => {
    const { list } = await scenario();
    expect((await stranger.browser.get('/shopping/')).body).not.toContain(`/shopping/${list.id}/`);
    expect((await stranger.browser.get(`/shopping/${list.id}/`)).statusCode).toBe(404);
  });

  it('gets 404 for every change, and nothing changes', () => expectEveryChangeRefused(stranger));

  it('gets 404 for ids that are not ids', async () => {
    for (const path of ['/shopping/abc/', '/shopping/-1/', '/shopping/2147483648/']) {
      expect((await stranger.browser.get(path)).statusCode, path).toBe(404);
    }
    expect((await stranger.browser.post('/shopping/items/x/delete/')).statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, SharePermission, User } from '../../db/schema.js';
import { type TestApp, TestBrowser, buildTestApp, createGroup, createUser, loggedIn } from '../../../test/helpers.js';
import { addShoppingItem, createShoppingList, listTablesSnapshot } from '../../../test/lists.js';

// The tick permission on shopping list pages, action by action and role by role: the roles that
// may act first, then every refused role gets the 404 of an absent list and nothing changes.

type Caller = { user: User; browser: TestBrowser };
type Role = 'owner' | 'tick user' | 'read user' | 'group member (tick)' | 'group member (read)' | 'stranger';

let t: TestApp;
let owner: Caller;
let ticker: Caller;
let reader: Caller;
let member: Caller;
let stranger: Caller;
let other: User;
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  [owner, ticker, reader, member, stranger] = [await loggedIn(t), await loggedIn(t), await loggedIn(t), await loggedIn(t), await loggedIn(t)];
  other = await createUser(t.db);
  group = await createGroup(t.db, owner.user, [member.user], 'Household');
});
afterAll(() => t.close());

const caller = (role: Role): Caller =>
  ({ owner, 'tick user': ticker, 'read user': reader, 'group member (tick)': member, 'group member (read)': member, stranger })[role];

/** A fresh list shared with a tick user and a read user, of the group with the role's group permission. */
async function scenario(role: Role) {
  const groupPermission: SharePermission = role === 'group member (tick)' ? 'tick' : 'read';
  const list = await createShoppingList(t.db, owner.user, { group, group_permission: groupPermission, sharedWith: [reader.user], tickers: [ticker.user] });
  const item = await addShoppingItem(t.db, list, { name: 'Lemons' });
  return { list, item };
}

const MAY_TICK: Role[] = ['owner', 'tick user', 'group member (tick)'];
const MAY_NOT_TICK: Role[] = ['read user', 'group member (read)', 'stranger'];
const NOT_OWNER: Role[] = ['tick user', 'read user', 'group member (tick)', 'group member (read)', 'stranger'];

async function expectRefused(role: Role, act: (ids: { listId: number; itemId: number }) => Promise<{ statusCode: number }>) {
  const { list, item } = await scenario(role);
  const before = await listTablesSnapshot(t.db);
  expect((await act({ listId: list.id, itemId: item.id })).statusCode, role).toBe(404);
  expect(await listTablesSnapshot(t.db), role).toEqual(before);
}

describe('adding an item', () => {
  it('is allowed to the owner, a tick user and a member of a tick group, recording who added it; refused (404) to the others', async () => {
    for (const role of MAY_TICK) {
      const { list } = await scenario(role);
      const response = await caller(role).browser.post(`/shopping/${list.id}/items/add/`, { name: `Bread for ${role}`, quantity: '', unit: '', estimated_price: '' });
      expect([response.statusCode, response.headers.location], role).toEqual([302, `/shopping/${list.id}/#add-item`]);
      const row = await t.db.selectFrom('shopping_items').select('created_by').where('list_id', '=', list.id).where('name', '=', `Bread for ${role}`).executeTakeFirstOrThrow();
      expect(row.created_by, role).toBe(caller(role).user.id);
    }
    for (const role of MAY_NOT_TICK) {
      await expectRefused(role, ({ listId }) => caller(role).browser.post(`/shopping/${listId}/items/add/`, { name: 'Sneaky' }));
      // An invalid form is the same 404: the permission is checked before the form.
      await expectRefused(role, ({ listId }) => caller(role).browser.post(`/shopping/${listId}/items/add/`, { name: '' }));
    }
  });
});

describe('ticking an item', () => {
  it('is allowed to the owner, a tick user and a member of a tick group, recording who and when, cleared when unticked; refused (404) to the others', async () => {
    for (const role of MAY_TICK) {
      const { list, item } = await scenario(role);
      const before = Date.now();
      const response = await caller(role).browser.post(`/shopping/items/${item.id}/toggle/`);
      expect([response.statusCode, response.headers.location], role).toEqual([302, `/shopping/${list.id}/#item-${item.id}`]);
      const row = await t.db.selectFrom('shopping_items').select(['is_bought', 'bought_by', 'bought_at']).where('id', '=', item.id).executeTakeFirstOrThrow();
      expect([row.is_bought, row.bought_by], role).toEqual([1, caller(role).user.id]);
      expect(Number(row.bought_at), role).toBeGreaterThanOrEqual(before);
      await caller(role).browser.post(`/shopping/items/${item.id}/toggle/`);
      expect(await t.db.selectFrom('shopping_items').select(['is_bought', 'bought_by', 'bought_at']).where('id', '=', item.id).executeTakeFirstOrThrow(), role)
        .toEqual({ is_bought: 0, bought_by: null, bought_at: null });
    }
    for (const role of MAY_NOT_TICK) await expectRefused(role, ({ itemId }) => caller(role).browser.post(`/shopping/items/${itemId}/toggle/`));
  });
});

describe('owner-only actions', () => {
  const actions: [string, (browser: TestBrowser, ids: { listId: number; itemId: number }) => Promise<{ statusCode: number }>][] = [
    ['delete an item', (browser, { itemId }) => browser.post(`/shopping/items/${itemId}/delete/`)],
    ['edit the list', (browser, { listId }) => browser.post(`/shopping/${listId}/edit/`, { title: 'Renamed', store_name: '', group: '', group_permission: 'read' })],
    ['delete the list', (browser, { listId }) => browser.post(`/shopping/${listId}/delete/`)],
    ['share the list', (browser, { listId }) => browser.post(`/shopping/${listId}/share/`, { username: other.username, action: 'add', permission: 'tick' })],
    ['change a share', (browser, { listId }) => browser.post(`/shopping/${listId}/share/`, { username: reader.user.username, action: 'add', permission: 'tick' })],
  ];
  for (const [name, act] of actions) {
    it(`${name}: the owner may; tick users and tick group members get 404 like everyone else`, async () => {
      const { list, item } = await scenario('owner');
      expect((await act(owner.browser, { listId: list.id, itemId: item.id })).statusCode).toBe(302);
      for (const role of NOT_OWNER) await expectRefused(role, (ids) => act(caller(role).browser, ids));
    });
  }
});

describe('the list page', () => {
  it('shows tick buttons and the add form to tick users, but no delete, edit or share controls', async () => {
    for (const role of ['tick user', 'group member (tick)'] as const) {
      const { list, item } = await scenario(role);
      const page = (await caller(role).browser.get(`/shopping/${list.id}/`)).body;
      expect(page, role).toContain(`action="/shopping/items/${item.id}/toggle/"`);
      expect(page, role).toContain(`action="/shopping/${list.id}/items/add/"`);
      expect(page, role).toContain('You can tick and add items');
      for (const control of ['/delete/', '/edit/', '/share/']) expect(page, `${role} ${control}`).not.toContain(control);
    }
  });

  it('shows read users and read group members no tick buttons and no add form', async () => {
    for (const role of ['read user', 'group member (read)'] as const) {
      const { list } = await scenario(role);
      const page = (await caller(role).browser.get(`/shopping/${list.id}/`)).body;
      for (const control of ['/toggle/', '/items/add/', '/delete/', '/edit/', '/share/']) expect(page, `${role} ${control}`).not.toContain(control);
      expect(page, role).toContain('Lemons');
    }
  });

  it('shows who added and who bought an item, and when', async () => {
    const { list } = await scenario('tick user');
    await ticker.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Cheese' });
    const cheese = await t.db.selectFrom('shopping_items').select('id').where('list_id', '=', list.id).where('name', '=', 'Cheese').executeTakeFirstOrThrow();
    await owner.browser.post(`/shopping/items/${cheese.id}/toggle/`);
    const page = (await reader.browser.get(`/shopping/${list.id}/`)).body;
    expect(page).toContain(`added by ${ticker.user.username} · bought by ${owner.user.username} <time datetime=`);
  });
});

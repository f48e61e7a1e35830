import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, SharePermission, User } from '../../../db/schema.js';
import { addShoppingItem, buildTestApp, createGroup, createShoppingList, createUser, deleteGroup, listTablesSnapshot, loggedIn, shoppingRows, type TestApp, TestBrowser } from '../../../../test/index.js';

// A shopping list's group on its pages: its members read the list, and with the group's `tick`
// permission also tick and add items; everything else stays the owner's, and a member refused
// gets the 404 of an absent list with nothing changed. Read and tick shares of users, the same
// for both kinds, are in ../permissions.test.ts and ../tick-permissions.test.ts.

type Caller = { user: User; browser: TestBrowser };
type Role = 'group member (tick)' | 'group member (read)';

let t: TestApp;
let owner: Caller;
let reader: Caller;
let member: Caller;
let other: User;
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  [owner, reader, member] = [await loggedIn(t), await loggedIn(t), await loggedIn(t)];
  other = await createUser(t.db);
  group = await createGroup(t.db, owner.user, [member.user], 'Flat 3');
});
afterAll(() => t.close());

const rows = () => shoppingRows(t.db);
const permissionOf = (role: Role): SharePermission => (role === 'group member (tick)' ? 'tick' : 'read');
const CONTROLS = ['/edit/', '/delete/', '/share/', '/items/add/', '/toggle/'];

/** A fresh list of the owner's at a store, shared with the reader and with the group, with one item to buy. */
async function scenario(groupPermission: SharePermission = 'read') {
  const list = await createShoppingList(t.db, owner.user, { title: 'Party', store_name: 'Corner shop', group, group_permission: groupPermission, sharedWith: [reader.user] });
  const item = await addShoppingItem(t.db, list, { name: 'Lemons', estimated_price_cents: 30, quantity_milli: 4000 });
  return { list, item };
}

async function expectRefused(role: Role, act: (ids: { listId: number; itemId: number }) => Promise<{ statusCode: number }>) {
  const { list, item } = await scenario(permissionOf(role));
  const before = await listTablesSnapshot(t.db);
  expect((await act({ listId: list.id, itemId: item.id })).statusCode, role).toBe(404);
  expect(await listTablesSnapshot(t.db), role).toEqual(before);
}

describe('owner of a list with a group', () => {
  it('sees it under "Mine" with its store, what is left to buy, its shares and its group', async () => {
    const { list } = await scenario();
    const mine = (await owner.browser.get('/shopping/')).body.split('id="shared"')[0]!;
    expect(mine).toContain(`href="/shopping/${list.id}/"`);
    expect(mine).toContain('Corner shop · 1 to buy · shared with 1 person · group <strong>Flat 3</strong>');
  });

  it('edits title and store and takes it out of the group with an empty choice', async () => {
    const { list } = await scenario();
    const response = await owner.browser.post(`/shopping/${list.id}/edit/`, { title: 'Picnic', store_name: 'Market', group: '' });
    expect([response.statusCode, response.headers.location]).toEqual([302, `/shopping/${list.id}/`]);
    expect(await rows().list(list.id)).toMatchObject({ title: 'Picnic', store_name: 'Market', group_id: null });
  });

  it('sees the sharing box name the group and its permission, not "Only you"', async () => {
    const list = await createShoppingList(t.db, owner.user, { group, group_permission: 'tick' });
    const page = (await owner.browser.get(`/shopping/${list.id}/`)).body;
    expect(page).toContain('Members of group <strong>Flat 3</strong> can tick and add items.');
    expect(page).not.toContain('Only you can see this list');
  });
});

describe('member of the list’s group', () => {
  it('sees it under "Shared with me" naming the group, and reads it without edit controls', async () => {
    const { list } = await scenario();
    const shared = (await member.browser.get('/shopping/')).body.split('id="shared"')[1]!;
    expect(shared).toContain(`href="/shopping/${list.id}/"`);
    expect(shared).toContain('Flat 3');
    const page = await member.browser.get(`/shopping/${list.id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Lemons');
    for (const control of CONTROLS) expect(page.body, control).not.toContain(control);
  });

  it('gets 404 for every change, and nothing changes', async () => {
    const { list, item } = await scenario();
    const changes: [string, string, Record<string, string>][] = [
      ['GET', `/shopping/${list.id}/edit/`, {}],
      ['POST', `/shopping/${list.id}/edit/`, { title: 'Taken over', store_name: '', group: '' }],
      ['GET', `/shopping/${list.id}/delete/`, {}],
      ['POST', `/shopping/${list.id}/delete/`, {}],
      ['POST', `/shopping/${list.id}/share/`, { username: other.username, action: 'add' }],
      ['POST', `/shopping/${list.id}/share/`, { username: reader.user.username, action: 'remove' }],
      ['POST', `/shopping/${list.id}/items/add/`, { name: 'Sneaky', quantity: '1', unit: '', estimated_price: '1.00' }],
      ['POST', `/shopping/${list.id}/items/add/`, { name: '', quantity: '-1', unit: '', estimated_price: 'x' }],
      ['POST', `/shopping/items/${item.id}/toggle/`, {}],
      ['POST', `/shopping/items/${item.id}/delete/`, {}],
    ];
    const before = await listTablesSnapshot(t.db);
    for (const [method, path, form] of changes) {
      const response = method === 'GET' ? await member.browser.get(path) : await member.browser.post(path, form);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('loses access when the list leaves the group, and when the group is deleted, the list staying its owner’s', async () => {
    const { list } = await scenario();
    await owner.browser.post(`/shopping/${list.id}/edit/`, { title: 'Party', store_name: '', group: '' });
    expect((await member.browser.get(`/shopping/${list.id}/`)).statusCode).toBe(404);

    const another = await createGroup(t.db, owner.user, [member.user]);
    const grouped = await createShoppingList(t.db, owner.user, { group: another });
    expect((await member.browser.get(`/shopping/${grouped.id}/`)).statusCode).toBe(200);
    await deleteGroup(t.db, another);
    expect((await member.browser.get(`/shopping/${grouped.id}/`)).statusCode).toBe(404);
    expect(await rows().list(grouped.id)).toMatchObject({ owner_id: owner.user.id, group_id: null });
  });
});

describe('the group’s tick permission', () => {
  it('lets a member of a tick group add an item, recording who added it; a member of a read group gets 404', async () => {
    const { list } = await scenario('tick');
    const response = await member.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Bread for the flat', quantity: '', unit: '', estimated_price: '' });
    expect([response.statusCode, response.headers.location]).toEqual([302, `/shopping/${list.id}/#add-item`]);
    const added = (await rows().items(list.id)).find((item) => item.name === 'Bread for the flat');
    expect(added?.created_by).toBe(member.user.id);
    await expectRefused('group member (read)', ({ listId }) => member.browser.post(`/shopping/${listId}/items/add/`, { name: 'Sneaky' }));
    // An invalid form is the same 404: the permission is checked before the form.
    await expectRefused('group member (read)', ({ listId }) => member.browser.post(`/shopping/${listId}/items/add/`, { name: '' }));
  });

  it('lets a member of a tick group tick an item, recording who and when, cleared when unticked; a member of a read group gets 404', async () => {
    const { list, item } = await scenario('tick');
    const before = Date.now();
    const response = await member.browser.post(`/shopping/items/${item.id}/toggle/`);
    expect([response.statusCode, response.headers.location]).toEqual([302, `/shopping/${list.id}/#item-${item.id}`]);
    const ticked = await rows().done(item.id);
    expect([ticked.done, ticked.by]).toEqual([1, member.user.id]);
    expect(ticked.at).toBeGreaterThanOrEqual(before);
    await member.browser.post(`/shopping/items/${item.id}/toggle/`);
    expect(await rows().done(item.id)).toEqual({ done: 0, by: null, at: null });
    await expectRefused('group member (read)', ({ itemId }) => member.browser.post(`/shopping/items/${itemId}/toggle/`));
  });

  /** What only the owner may do, the owner's status, and how. */
  const ownerOnly: [string, number, (browser: TestBrowser, ids: { listId: number; itemId: number }) => Promise<{ statusCode: number }>][] = [
    ['delete an item', 302, (browser, { itemId }) => browser.post(`/shopping/items/${itemId}/delete/`)],
    ['edit the list', 302, (browser, { listId }) => browser.post(`/shopping/${listId}/edit/`, { title: 'Renamed', store_name: '', group: '', group_permission: 'read' })],
    ['delete the list', 302, (browser, { listId }) => browser.post(`/shopping/${listId}/delete/`)],
    ['share the list', 302, (browser, { listId }) => browser.post(`/shopping/${listId}/share/`, { username: other.username, action: 'add', permission: 'tick' })],
    ['change a share', 302, (browser, { listId }) => browser.post(`/shopping/${listId}/share/`, { username: reader.user.username, action: 'add', permission: 'tick' })],
    ['open an item’s edit form', 200, (browser, { itemId }) => browser.get(`/shopping/items/${itemId}/edit/`)],
    ['edit an item', 302, (browser, { itemId }) => browser.post(`/shopping/items/${itemId}/edit/`, { name: 'Sneaky' })],
    // An invalid form is the same 404 to the others: the permission comes first.
    ['send an invalid item edit', 400, (browser, { itemId }) => browser.post(`/shopping/items/${itemId}/edit/`, { name: '' })],
    ['confirm deleting an item', 200, (browser, { itemId }) => browser.get(`/shopping/items/${itemId}/delete/`)],
  ];
  for (const [name, ownerStatus, act] of ownerOnly) {
    it(`${name}: the owner may; members of a tick group and of a read group get 404`, async () => {
      const { list, item } = await scenario();
      expect((await act(owner.browser, { listId: list.id, itemId: item.id })).statusCode).toBe(ownerStatus);
      for (const role of ['group member (tick)', 'group member (read)'] as const) await expectRefused(role, (ids) => act(member.browser, ids));
    });
  }

  it('shows members of a tick group tick buttons and the add form, without delete, edit or share controls', async () => {
    const { list, item } = await scenario('tick');
    const page = (await member.browser.get(`/shopping/${list.id}/`)).body;
    expect(page).toContain(`action="/shopping/items/${item.id}/toggle/"`);
    expect(page).toContain(`action="/shopping/${list.id}/items/add/"`);
    expect(page).toContain('You can tick and add items');
    for (const control of ['/delete/', '/edit/', '/share/']) expect(page, control).not.toContain(control);
  });

  it('shows members of a read group no tick buttons and no add form', async () => {
    const { list } = await scenario('read');
    const page = (await member.browser.get(`/shopping/${list.id}/`)).body;
    for (const control of CONTROLS) expect(page, control).not.toContain(control);
    expect(page).toContain('Lemons');
  });
});

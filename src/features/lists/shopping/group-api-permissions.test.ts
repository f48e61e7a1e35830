import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, SharePermission, User } from '../../../db/schema.js';
import { addShoppingItem, ApiClient, buildTestApp, createGroup, createShoppingList, createToken, createUser, listTablesSnapshot, results, type TestApp } from '../../../../test/index.js';

// A shopping list's group through the API, exactly as on the pages: its members read the list,
// and with the group's `tick` permission also add items and mark them bought; the rest stays the
// owner's, and a member refused gets the 404 of an absent list with nothing changed. Shares of
// users, the same for both kinds: ../api-permissions.test.ts and ../tick-api-permissions.test.ts.

type Role = 'group member (tick)' | 'group member (read)';
type Path = (ids: { listId: number; itemId: number }) => string;

let t: TestApp;
let users: Record<'owner' | 'ticker' | 'reader' | 'member' | 'stranger' | 'other', User>;
let group: Group;
const clients = new Map<number, ApiClient>();
let ownerReadOnly: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  users = { owner: await createUser(t.db), ticker: await createUser(t.db), reader: await createUser(t.db), member: await createUser(t.db), stranger: await createUser(t.db), other: await createUser(t.db) };
  group = await createGroup(t.db, users.owner, [users.member]);
  for (const user of Object.values(users)) clients.set(user.id, new ApiClient(t.app, { token: await createToken(t.db, user) }));
  ownerReadOnly = new ApiClient(t.app, { token: await createToken(t.db, users.owner, 'read') });
});
afterAll(() => t.close());

const api = (user: User) => clients.get(user.id)!;
const permissionOf = (role: Role): SharePermission => (role === 'group member (tick)' ? 'tick' : 'read');

/** A fresh list of the group with this permission, shared with a reader and a tick user, with one item. */
async function scenario(groupPermission: SharePermission = 'read') {
  const list = await createShoppingList(t.db, users.owner, { title: 'Household', group, group_permission: groupPermission, sharedWith: [users.reader], tickers: [users.ticker] });
  return { list, item: await addShoppingItem(t.db, list, { name: 'Soap' }) };
}

async function expectRefused(role: Role, method: string, path: Path, body?: unknown) {
  const { list, item } = await scenario(permissionOf(role));
  const before = await listTablesSnapshot(t.db);
  expect((await api(users.member).request(method, path({ listId: list.id, itemId: item.id }), { body })).statusCode, `${role} ${method}`).toBe(404);
  expect(await listTablesSnapshot(t.db), role).toEqual(before);
}

describe('member of the list’s group', () => {
  it('finds it in the collection, with its group and the group’s permission, and reads it and its items, without the shares', async () => {
    const { list, item } = await scenario();
    const listed = results(await api(users.member).get('/api/v1/shopping/?limit=100')).find((row) => row.id === (list.id as never));
    expect(listed).toMatchObject({ title: 'Household', owner: users.owner.username, group: group.id, group_permission: 'read', shares: null });
    for (const path of [`/api/v1/shopping/${list.id}/`, `/api/v1/shopping/items/${item.id}/`]) expect((await api(users.member).get(path)).statusCode, path).toBe(200);
  });

  it('gets 404 for every change, and nothing changes', async () => {
    const { list, item } = await scenario();
    const writes: [string, string, unknown?][] = [
      ['PATCH', `/api/v1/shopping/${list.id}/`, { title: 'Taken over' }],
      ['PATCH', `/api/v1/shopping/${list.id}/`, { group: null }],
      ['POST', `/api/v1/shopping/${list.id}/items/`, { name: 'Sneaky item' }],
      ['PATCH', `/api/v1/shopping/items/${item.id}/`, { is_bought: true }],
      ['DELETE', `/api/v1/shopping/items/${item.id}/`],
      ['POST', `/api/v1/shopping/${list.id}/share/`, { username: users.other.username, action: 'add' }],
      ['POST', `/api/v1/shopping/${list.id}/share/`, { username: users.reader.username, action: 'remove' }],
      ['DELETE', `/api/v1/shopping/${list.id}/`],
    ];
    const before = await listTablesSnapshot(t.db);
    for (const [method, path, body] of writes) expect((await api(users.member).request(method, path, { body })).statusCode, `${method} ${path}`).toBe(404);
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('loses access when the owner takes the list out of the group', async () => {
    const { list } = await scenario();
    expect((await api(users.owner).patch(`/api/v1/shopping/${list.id}/`, { group: null })).statusCode).toBe(200);
    expect((await api(users.member).get(`/api/v1/shopping/${list.id}/`)).statusCode).toBe(404);
  });
});

describe('taking a list out of its group', () => {
  it('is the owner’s: a 403 with a read-only token, a 404 to a reader and a stranger, nothing changed', async () => {
    const { list } = await scenario();
    const before = await listTablesSnapshot(t.db);
    expect((await ownerReadOnly.patch(`/api/v1/shopping/${list.id}/`, { group: null })).statusCode).toBe(403);
    for (const user of [users.reader, users.stranger]) expect((await api(user).patch(`/api/v1/shopping/${list.id}/`, { group: null })).statusCode, user.username).toBe(404);
    expect(await listTablesSnapshot(t.db)).toEqual(before);
    expect((await api(users.owner).patch(`/api/v1/shopping/${list.id}/`, { group: null })).statusCode).toBe(200);
  });
});

describe('the group’s tick permission', () => {
  it('lets a member of a tick group add items, with created_by; a member of a read group gets 404', async () => {
    const { list } = await scenario('tick');
    const response = await api(users.member).post(`/api/v1/shopping/${list.id}/items/`, { name: 'Towels' });
    expect([response.statusCode, response.data.created_by, response.data.bought_by]).toEqual([201, users.member.username, null]);
    await expectRefused('group member (read)', 'POST', ({ listId }) => `/api/v1/shopping/${listId}/items/`, { name: 'Sneaky' });
  });

  it('lets a member of a tick group mark items bought, with bought_by and bought_at; a member of a read group gets 404', async () => {
    const { item } = await scenario('tick');
    const response = await api(users.member).patch(`/api/v1/shopping/items/${item.id}/`, { is_bought: true });
    expect([response.statusCode, response.data.is_bought, response.data.bought_by]).toEqual([200, true, users.member.username]);
    expect(typeof response.data.bought_at).toBe('string');
    const undone = await api(users.member).patch(`/api/v1/shopping/items/${item.id}/`, { is_bought: false });
    expect([undone.data.bought_by, undone.data.bought_at]).toEqual([null, null]);
    await expectRefused('group member (read)', 'PATCH', ({ itemId }) => `/api/v1/shopping/items/${itemId}/`, { is_bought: true });
  });

  it('leaves deleting items, and changing and sharing the list, to the owner: members of a tick group and of a read group get 404', async () => {
    const calls: [string, Path, unknown?][] = [
      ['DELETE', ({ itemId }) => `/api/v1/shopping/items/${itemId}/`],
      ['PATCH', ({ listId }) => `/api/v1/shopping/${listId}/`, { title: 'Renamed' }],
      ['POST', ({ listId }) => `/api/v1/shopping/${listId}/share/`, { username: users.other.username, action: 'add', permission: 'tick' }],
      ['DELETE', ({ listId }) => `/api/v1/shopping/${listId}/`],
    ];
    for (const [method, path, body] of calls) {
      const { list, item } = await scenario();
      expect((await api(users.owner).request(method, path({ listId: list.id, itemId: item.id }), { body })).statusCode, method).toBeLessThan(300);
      for (const role of ['group member (tick)', 'group member (read)'] as const) await expectRefused(role, method, path, body);
    }
  });

  it('shares carry their permission, and the list its group_permission, which applies at once', async () => {
    const { list, item } = await scenario('tick');
    const shared = await api(users.owner).post(`/api/v1/shopping/${list.id}/share/`, { username: users.reader.username, action: 'add', permission: 'tick' });
    expect(shared.data.shares).toEqual([{ username: users.reader.username, permission: 'tick' }, { username: users.ticker.username, permission: 'tick' }].sort((a, b) => a.username.localeCompare(b.username)));
    expect(shared.data.group_permission).toBe('tick');
    const changed = await api(users.owner).patch(`/api/v1/shopping/${list.id}/`, { group_permission: 'read' });
    expect(changed.data.group_permission).toBe('read');
    expect((await api(users.member).patch(`/api/v1/shopping/items/${item.id}/`, { is_bought: true })).statusCode).toBe(404);
  });
});

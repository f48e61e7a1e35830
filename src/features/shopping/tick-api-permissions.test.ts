import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharePermission, User } from '../../db/schema.js';
import { ApiClient, createToken } from '../../../test/api.js';
import { type TestApp, buildTestApp, createGroup, createUser } from '../../../test/helpers.js';
import { addShoppingItem, createShoppingList, listTablesSnapshot } from '../../../test/lists.js';

// The tick permission through the shopping API, role by role: who may add and mark items bought
// (with who and when in the answer), and that the owner-only changes stay the owner's.

type Role = 'owner' | 'tick user' | 'read user' | 'group member (tick)' | 'group member (read)' | 'stranger';
let t: TestApp;
let users: Record<'owner' | 'ticker' | 'reader' | 'member' | 'stranger' | 'other', User>;
let group: Awaited<ReturnType<typeof createGroup>>;
const clients = new Map<number, ApiClient>();

beforeAll(async () => {
  t = await buildTestApp();
  users = { owner: await createUser(t.db), ticker: await createUser(t.db), reader: await createUser(t.db), member: await createUser(t.db), stranger: await createUser(t.db), other: await createUser(t.db) };
  group = await createGroup(t.db, users.owner, [users.member]);
  for (const user of Object.values(users)) clients.set(user.id, new ApiClient(t.app, { token: await createToken(t.db, user) }));
});
afterAll(() => t.close());

const userOf = (role: Role): User =>
  ({ owner: users.owner, 'tick user': users.ticker, 'read user': users.reader, 'group member (tick)': users.member, 'group member (read)': users.member, stranger: users.stranger })[role];
const api = (role: Role) => clients.get(userOf(role).id)!;

async function scenario(role: Role) {
  const groupPermission: SharePermission = role === 'group member (tick)' ? 'tick' : 'read';
  const list = await createShoppingList(t.db, users.owner, { group, group_permission: groupPermission, sharedWith: [users.reader], tickers: [users.ticker] });
  return { list, item: await addShoppingItem(t.db, list, { name: 'Soap' }) };
}

const MAY_TICK: Role[] = ['owner', 'tick user', 'group member (tick)'];
const MAY_NOT_TICK: Role[] = ['read user', 'group member (read)', 'stranger'];

async function expectRefused(role: Role, method: string, path: (ids: { listId: number; itemId: number }) => string, body?: unknown) {
  const { list, item } = await scenario(role);
  const before = await listTablesSnapshot(t.db);
  expect((await api(role).request(method, path({ listId: list.id, itemId: item.id }), { body })).statusCode, `${role} ${method}`).toBe(404);
  expect(await listTablesSnapshot(t.db), role).toEqual(before);
}

describe('items through the API', () => {
  it('are added by the owner, tick users and tick group members, with created_by; refused (404) to the others', async () => {
    for (const role of MAY_TICK) {
      const { list } = await scenario(role);
      const response = await api(role).request('POST', `/api/v1/shopping/${list.id}/items/`, { body: { name: 'Towels' } });
      expect([response.statusCode, response.data.created_by, response.data.bought_by], role).toEqual([201, userOf(role).username, null]);
    }
    for (const role of MAY_NOT_TICK) await expectRefused(role, 'POST', ({ listId }) => `/api/v1/shopping/${listId}/items/`, { name: 'Sneaky' });
  });

  it('are marked bought by the owner, tick users and tick group members, with bought_by and bought_at; refused (404) to the others', async () => {
    for (const role of MAY_TICK) {
      const { item } = await scenario(role);
      const response = await api(role).request('PATCH', `/api/v1/shopping/items/${item.id}/`, { body: { is_bought: true } });
      expect([response.statusCode, response.data.is_bought, response.data.bought_by], role).toEqual([200, true, userOf(role).username]);
      expect(typeof response.data.bought_at, role).toBe('string');
      const undone = await api(role).request('PATCH', `/api/v1/shopping/items/${item.id}/`, { body: { is_bought: false } });
      expect([undone.data.bought_by, undone.data.bought_at], role).toEqual([null, null]);
    }
    for (const role of MAY_NOT_TICK) await expectRefused(role, 'PATCH', ({ itemId }) => `/api/v1/shopping/items/${itemId}/`, { is_bought: true });
  });

  it('are deleted, and the list changed and shared, by the owner only: tick users and tick group members get 404', async () => {
    const calls: [string, (ids: { listId: number; itemId: number }) => string, unknown?][] = [
      ['DELETE', ({ itemId }) => `/api/v1/shopping/items/${itemId}/`],
      ['PATCH', ({ listId }) => `/api/v1/shopping/${listId}/`, { title: 'Renamed' }],
      ['POST', ({ listId }) => `/api/v1/shopping/${listId}/share/`, { username: users.other.username, action: 'add', permission: 'tick' }],
      ['DELETE', ({ listId }) => `/api/v1/shopping/${listId}/`],
    ];
    for (const [method, path, body] of calls) {
      const { list, item } = await scenario('owner');
      expect((await api('owner').request(method, path({ listId: list.id, itemId: item.id }), { body })).statusCode, method).toBeLessThan(300);
      for (const role of ['tick user', 'group member (tick)', 'read user', 'stranger'] as const) await expectRefused(role, method, path, body);
    }
  });

  it('shares carry their permission, and the list its group_permission', async () => {
    const { list, item } = await scenario('group member (tick)');
    const shared = await api('owner').request('POST', `/api/v1/shopping/${list.id}/share/`, { body: { username: users.reader.username, action: 'add', permission: 'tick' } });
    expect(shared.data.shares).toEqual([{ username: users.reader.username, permission: 'tick' }, { username: users.ticker.username, permission: 'tick' }].sort((a, b) => a.username.localeCompare(b.username)));
    expect(shared.data.group_permission).toBe('tick');
    const changed = await api('owner').request('PATCH', `/api/v1/shopping/${list.id}/`, { body: { group_permission: 'read' } });
    expect(changed.data.group_permission).toBe('read');
    expect((await api('group member (read)').request('PATCH', `/api/v1/shopping/items/${item.id}/`, { body: { is_bought: true } })).statusCode).toBe(404);
  });
});

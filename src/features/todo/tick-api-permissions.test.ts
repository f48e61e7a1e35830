import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { ApiClient, createToken } from '../../../test/api.js';
import { type TestApp, buildTestApp, createUser } from '../../../test/helpers.js';
import { addTodoItem, createTodoList, listTablesSnapshot } from '../../../test/lists.js';

// The tick permission through the to-do API, role by role, with who did what and assignees.

type Role = 'owner' | 'tick user' | 'read user' | 'stranger';
let t: TestApp;
let users: Record<'owner' | 'ticker' | 'reader' | 'stranger' | 'other', User>;
const clients = new Map<number, ApiClient>();

beforeAll(async () => {
  t = await buildTestApp();
  users = { owner: await createUser(t.db), ticker: await createUser(t.db), reader: await createUser(t.db), stranger: await createUser(t.db), other: await createUser(t.db) };
  for (const user of Object.values(users)) clients.set(user.id, new ApiClient(t.app, { token: await createToken(t.db, user) }));
});
afterAll(() => t.close());

const userOf = (role: Role): User => ({ owner: users.owner, 'tick user': users.ticker, 'read user': users.reader, stranger: users.stranger })[role];
const api = (role: Role) => clients.get(userOf(role).id)!;

async function scenario() {
  const list = await createTodoList(t.db, users.owner, { sharedWith: [users.reader], tickers: [users.ticker] });
  return { list, item: await addTodoItem(t.db, list) };
}

async function expectRefused(role: Role, method: string, path: (ids: { listId: number; itemId: number }) => string, body?: unknown) {
  const { list, item } = await scenario();
  const before = await listTablesSnapshot(t.db);
  expect((await api(role).request(method, path({ listId: list.id, itemId: item.id }), { body })).statusCode, `${role} ${method}`).toBe(404);
  expect(await listTablesSnapshot(t.db), role).toEqual(before);
}

describe('to-do items through the API', () => {
  it('are added by the owner and tick users, with created_by and an assignee who may read the list; refused (404) to the others', async () => {
    for (const role of ['owner', 'tick user'] as const) {
      const { list } = await scenario();
      const response = await api(role).request('POST', `/api/v1/todo/${list.id}/items/`, { body: { text: 'Call the plumber', assignee: users.reader.username } });
      expect([response.statusCode, response.data.created_by, response.data.assignee, response.data.done_by], role).toEqual([201, userOf(role).username, users.reader.username, null]);
      const refused = await api(role).request('POST', `/api/v1/todo/${list.id}/items/`, { body: { text: 'Call the plumber', assignee: users.stranger.username } });
      expect([refused.statusCode, Object.keys(refused.data.error?.fields ?? {})], role).toEqual([400, ['assignee']]);
    }
    for (const role of ['read user', 'stranger'] as const) await expectRefused(role, 'POST', ({ listId }) => `/api/v1/todo/${listId}/items/`, { text: 'Sneaky' });
  });

  it('are marked done by the owner and tick users, with done_by and done_at; refused (404) to the others', async () => {
    for (const role of ['owner', 'tick user'] as const) {
      const { item } = await scenario();
      const response = await api(role).request('PATCH', `/api/v1/todo/items/${item.id}/`, { body: { is_done: true } });
      expect([response.statusCode, response.data.is_done, response.data.done_by], role).toEqual([200, true, userOf(role).username]);
      expect(typeof response.data.done_at, role).toBe('string');
    }
    for (const role of ['read user', 'stranger'] as const) await expectRefused(role, 'PATCH', ({ itemId }) => `/api/v1/todo/items/${itemId}/`, { is_done: true });
  });

  it('are deleted, and the list changed and shared, by the owner only: a tick user gets 404', async () => {
    const calls: [string, (ids: { listId: number; itemId: number }) => string, unknown?][] = [
      ['DELETE', ({ itemId }) => `/api/v1/todo/items/${itemId}/`],
      ['PATCH', ({ listId }) => `/api/v1/todo/${listId}/`, { title: 'Renamed' }],
      ['POST', ({ listId }) => `/api/v1/todo/${listId}/share/`, { username: users.other.username, action: 'add', permission: 'tick' }],
      ['DELETE', ({ listId }) => `/api/v1/todo/${listId}/`],
    ];
    for (const [method, path, body] of calls) {
      const { list, item } = await scenario();
      expect((await api('owner').request(method, path({ listId: list.id, itemId: item.id }), { body })).statusCode, method).toBeLessThan(300);
      for (const role of ['tick user', 'read user', 'stranger'] as const) await expectRefused(role, method, path, body);
    }
  });
});

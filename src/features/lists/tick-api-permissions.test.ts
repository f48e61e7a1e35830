import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { ApiClient, buildTestApp, createToken, createUser, LIST_KINDS, listTablesSnapshot, type TestApp } from '../../../test/index.js';

// The tick permission through the lists API, role by role: who may add and tick items (with who
// and when in the answer), and that the owner-only changes stay the owner's. A shopping list's
// group: shopping/group-api-permissions.test.ts; to-do assignees: todo/assignees.test.ts.

type Role = 'owner' | 'tick user' | 'read user' | 'stranger';
type Path = (ids: { listId: number; itemId: number }) => string;
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
const MAY_TICK = ['owner', 'tick user'] as const;
const MAY_NOT_TICK = ['read user', 'stranger'] as const;

describe.each(LIST_KINDS)('$noun', (kind) => {
  async function scenario() {
    const list = await kind.createList(t.db, users.owner, { sharedWith: [users.reader], tickers: [users.ticker] });
    return { list, item: await kind.addItem(t.db, list) };
  }

  async function expectRefused(role: Role, method: string, path: Path, body?: unknown) {
    const { list, item } = await scenario();
    const before = await listTablesSnapshot(t.db);
    expect((await api(role).request(method, path({ listId: list.id, itemId: item.id }), { body })).statusCode, `${role} ${method}`).toBe(404);
    expect(await listTablesSnapshot(t.db), role).toEqual(before);
  }

  describe('items through the API', () => {
    it('are added by the owner and tick users, with created_by; refused (404) to the others', async () => {
      for (const role of MAY_TICK) {
        const { list } = await scenario();
        const response = await api(role).post(`${kind.api}/${list.id}/items/`, { [kind.label]: 'Call the plumber' });
        expect([response.statusCode, response.data.created_by, response.data[kind.json.by]], role).toEqual([201, userOf(role).username, null]);
      }
      for (const role of MAY_NOT_TICK) await expectRefused(role, 'POST', ({ listId }) => `${kind.api}/${listId}/items/`, { [kind.label]: 'Sneaky' });
    });

    it('are ticked by the owner and tick users, with who and when, cleared when unticked; refused (404) to the others', async () => {
      for (const role of MAY_TICK) {
        const { item } = await scenario();
        const response = await api(role).patch(`${kind.api}/items/${item.id}/`, { [kind.json.done]: true });
        expect([response.statusCode, response.data[kind.json.done], response.data[kind.json.by]], role).toEqual([200, true, userOf(role).username]);
        expect(typeof response.data[kind.json.at], role).toBe('string');
        const undone = await api(role).patch(`${kind.api}/items/${item.id}/`, { [kind.json.done]: false });
        expect([undone.data[kind.json.by], undone.data[kind.json.at]], role).toEqual([null, null]);
      }
      for (const role of MAY_NOT_TICK) await expectRefused(role, 'PATCH', ({ itemId }) => `${kind.api}/items/${itemId}/`, { [kind.json.done]: true });
    });

    it('are deleted, and the list changed and shared, by the owner only: a tick user gets 404', async () => {
      const calls: [string, Path, unknown?][] = [
        ['DELETE', ({ itemId }) => `${kind.api}/items/${itemId}/`],
        ['PATCH', ({ listId }) => `${kind.api}/${listId}/`, { title: 'Renamed' }],
        ['POST', ({ listId }) => `${kind.api}/${listId}/share/`, { username: users.other.username, action: 'add', permission: 'tick' }],
        ['DELETE', ({ listId }) => `${kind.api}/${listId}/`],
      ];
      for (const [method, path, body] of calls) {
        const { list, item } = await scenario();
        expect((await api('owner').request(method, path({ listId: list.id, itemId: item.id }), { body })).statusCode, method).toBeLessThan(300);
        for (const role of ['tick user', ...MAY_NOT_TICK] as const) await expectRefused(role, method, path, body);
      }
    });
  });
});

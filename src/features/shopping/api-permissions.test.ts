import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { ApiClient, createToken, results } from '../../../test/api.js';
import { type TestApp, buildTestApp, createGroup, createUser } from '../../../test/helpers.js';
import { addShoppingItem, createShoppingList, listTablesSnapshot } from '../../../test/lists.js';

// Who may do what through the shopping API, endpoint by endpoint, exactly as the pages: the owner
// reads and changes; a user it is shared with and a member of its group read; anyone else gets
// the 404 of an absent list. These shares and the group have the `read` permission; `tick` is
// in tick-api-permissions.test.ts.

let t: TestApp;
let owner: User;
let reader: User;
let stranger: User;
let other: User;
let member: User;
let group: Awaited<ReturnType<typeof createGroup>>;
const as: Record<'owner' | 'reader' | 'member' | 'stranger' | 'ownerReadOnly', ApiClient> = {} as never;

beforeAll(async () => {
  t = await buildTestApp();
  [owner, reader, stranger, other, member] = [await createUser(t.db), await createUser(t.db), await createUser(t.db), await createUser(t.db), await createUser(t.db)];
  group = await createGroup(t.db, owner, [member]);
  as.member = new ApiClient(t.app, { token: await createToken(t.db, member) });
  as.owner = new ApiClient(t.app, { token: await createToken(t.db, owner) });
  as.reader = new ApiClient(t.app, { token: await createToken(t.db, reader) });
  as.stranger = new ApiClient(t.app, { token: await createToken(t.db, stranger) });
  as.ownerReadOnly = new ApiClient(t.app, { token: await createToken(t.db, owner, 'read') });
});
afterAll(() => t.close());

/** A fresh list of the owner's, shared with the reader, of the member's group, with one item. */
async function scenario() {
  const list = await createShoppingList(t.db, owner, { title: 'Household', sharedWith: [reader], group });
  const item = await addShoppingItem(t.db, list, { name: 'Soap' });
  return { list, item };
}

type Call = [method: string, path: string, body?: unknown];

const reads = (listId: number, itemId: number): Call[] => [
  ['GET', `/api/v1/shopping/${listId}/`],
  ['GET', `/api/v1/shopping/items/${itemId}/`],
];

/** Every change, each with a valid body: only the permission can refuse it. */
const writes = (listId: number, itemId: number): Call[] => [
  ['PATCH', `/api/v1/shopping/${listId}/`, { title: 'Taken over' }],
  ['PATCH', `/api/v1/shopping/${listId}/`, { group: null }],
  ['POST', `/api/v1/shopping/${listId}/items/`, { name: 'Sneaky item' }],
  ['PATCH', `/api/v1/shopping/items/${itemId}/`, { is_bought: true }],
  ['DELETE', `/api/v1/shopping/items/${itemId}/`],
  ['POST', `/api/v1/shopping/${listId}/share/`, { username: other.username, action: 'add' }],
  ['POST', `/api/v1/shopping/${listId}/share/`, { username: reader.username, action: 'remove' }],
  ['DELETE', `/api/v1/shopping/${listId}/`],
];

async function answers(client: ApiClient, calls: Call[]) {
  const statuses: Record<string, number> = {};
  for (const [method, path, body] of calls) statuses[`${method} ${path} ${JSON.stringify(body ?? '')}`] = (await client.request(method, path, { body })).statusCode;
  return statuses;
}

const all = (calls: Call[], status: number) => Object.fromEntries(calls.map(([method, path, body]) => [`${method} ${path} ${JSON.stringify(body ?? '')}`, status]));

describe('owner', () => {
  it('lists, reads and makes every change', async () => {
    const { list, item } = await scenario();
    expect(results(await as.owner.get('/api/v1/shopping/?limit=100')).map((row) => row.id)).toContain(list.id);
    expect(await answers(as.owner, reads(list.id, item.id))).toEqual(all(reads(list.id, item.id), 200));
    const statuses = Object.values(await answers(as.owner, writes(list.id, item.id)));
    expect(statuses).toEqual([200, 200, 201, 200, 204, 200, 200, 204]);
  });

  it('with a read-only token reads, and every change is a 403 that changes nothing', async () => {
    const { list, item } = await scenario();
    expect(await answers(as.ownerReadOnly, reads(list.id, item.id))).toEqual(all(reads(list.id, item.id), 200));
    const create: Call = ['POST', '/api/v1/shopping/', { title: 'New' }];
    const before = await listTablesSnapshot(t.db);
    const calls = [create, ...writes(list.id, item.id)];
    expect(await answers(as.ownerReadOnly, calls)).toEqual(all(calls, 403));
    expect((await as.ownerReadOnly.patch(`/api/v1/shopping/${list.id}/`, { title: 'x' })).data.error?.code).toBe('forbidden');
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });
});

describe('member of the list’s group', () => {
  it('finds it in the collection and reads it and its items, without the shares', async () => {
    const { list, item } = await scenario();
    const listed = results(await as.member.get('/api/v1/shopping/?limit=100')).find((row) => row.id === (list.id as never));
    expect(listed).toMatchObject({ title: 'Household', owner: owner.username, group: group.id, group_permission: 'read', shares: null });
    expect(await answers(as.member, reads(list.id, item.id))).toEqual(all(reads(list.id, item.id), 200));
  });

  it('gets 404 for every change, and nothing changes', async () => {
    const { list, item } = await scenario();
    const before = await listTablesSnapshot(t.db);
    expect(await answers(as.member, writes(list.id, item.id))).toEqual(all(writes(list.id, item.id), 404));
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('loses access when the owner takes the list out of the group', async () => {
    const { list } = await scenario();
    expect((await as.owner.patch(`/api/v1/shopping/${list.id}/`, { group: null })).statusCode).toBe(200);
    expect((await as.member.get(`/api/v1/shopping/${list.id}/`)).statusCode).toBe(404);
  });
});

describe('user the list is shared with', () => {
  it('finds it in the collection and reads it and its items, without the shares', async () => {
    const { list, item } = await scenario();
    const listed = results(await as.reader.get('/api/v1/shopping/?limit=100')).find((row) => row.id === (list.id as never));
    expect(listed).toMatchObject({ title: 'Household', owner: owner.username, shares: null });
    expect(await answers(as.reader, reads(list.id, item.id))).toEqual(all(reads(list.id, item.id), 200));
    expect((await as.reader.get(`/api/v1/shopping/${list.id}/`)).data.shares).toBeNull();
  });

  it('gets 404 for every change, and nothing changes', async () => {
    const { list, item } = await scenario();
    const before = await listTablesSnapshot(t.db);
    expect(await answers(as.reader, writes(list.id, item.id))).toEqual(all(writes(list.id, item.id), 404));
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('loses access at once when the owner stops sharing', async () => {
    const { list } = await scenario();
    expect((await as.owner.post(`/api/v1/shopping/${list.id}/share/`, { username: reader.username, action: 'remove' })).statusCode).toBe(200);
    expect((await as.reader.get(`/api/v1/shopping/${list.id}/`)).statusCode).toBe(404);
    expect(results(await as.reader.get('/api/v1/shopping/?limit=100')).map((row) => row.id)).not.toContain(list.id);
  });
});

describe('stranger', () => {
  it('does not find the list, gets 404 for every read and change, and nothing changes', async () => {
    const { list, item } = await scenario();
    expect(results(await as.stranger.get('/api/v1/shopping/?limit=100')).map((row) => row.id)).not.toContain(list.id);
    const before = await listTablesSnapshot(t.db);
    const calls = [...reads(list.id, item.id), ...writes(list.id, item.id)];
    expect(await answers(as.stranger, calls)).toEqual(all(calls, 404));
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('gets the same 404 for a hidden list as for an absent one, and for ids that are not ids', async () => {
    const { list } = await scenario();
    const hidden = await as.stranger.get(`/api/v1/shopping/${list.id}/`);
    const absent = await as.stranger.get('/api/v1/shopping/2147483647/');
    expect([hidden.statusCode, hidden.body]).toEqual([404, absent.body]);
    expect(hidden.data.error?.code).toBe('not_found');
    for (const path of ['/api/v1/shopping/abc/', '/api/v1/shopping/0/', '/api/v1/shopping/99999999999/', '/api/v1/shopping/1e3/', '/api/v1/shopping/items/99999999999/']) {
      expect((await as.stranger.get(path)).statusCode, path).toBe(404);
      expect((await as.owner.patch(path, { title: 'x' })).statusCode, path).toBe(404);
    }
  });
});

describe('no credentials', () => {
  it('is a 401, never a redirect to the login page', async () => {
    const response = await new ApiClient(t.app, null).get('/api/v1/shopping/');
    expect(response.statusCode).toBe(401);
  });
});

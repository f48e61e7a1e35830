import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { ApiClient, buildTestApp, createToken, createUser, LIST_KINDS, listTablesSnapshot, results, type TestApp } from '../../../test/index.js';

// Who may do what through the lists API, endpoint by endpoint, exactly as the pages: the owner
// reads and changes; a user it is shared with reads; anyone else gets the 404 of an absent list.
// (These shares have the `read` permission; `tick` is in tick-api-permissions.test.ts, a shopping
// list's group in shopping/group-api-permissions.test.ts.)

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

type Call = [method: string, path: string, body?: unknown];

async function answers(client: ApiClient, calls: Call[]) {
  const statuses: Record<string, number> = {};
  for (const [method, path, body] of calls) statuses[`${method} ${path} ${JSON.stringify(body ?? '')}`] = (await client.request(method, path, { body })).statusCode;
  return statuses;
}

const all = (calls: Call[], status: number) => Object.fromEntries(calls.map(([method, path, body]) => [`${method} ${path} ${JSON.stringify(body ?? '')}`, status]));

describe.each(LIST_KINDS)('$noun', (kind) => {
  // Users for each kind: the API's rate limit counts an account's calls.
  let owner: User;
  let reader: User;
  let stranger: User;
  let other: User;
  const as: Record<'owner' | 'reader' | 'stranger' | 'ownerReadOnly', ApiClient> = {} as never;

  beforeAll(async () => {
    [owner, reader, stranger, other] = [await createUser(t.db), await createUser(t.db), await createUser(t.db), await createUser(t.db)];
    as.owner = new ApiClient(t.app, { token: await createToken(t.db, owner) });
    as.reader = new ApiClient(t.app, { token: await createToken(t.db, reader) });
    as.stranger = new ApiClient(t.app, { token: await createToken(t.db, stranger) });
    as.ownerReadOnly = new ApiClient(t.app, { token: await createToken(t.db, owner, 'read') });
  });

  /** A fresh list of the owner's, shared with the reader, with one item. */
  async function scenario() {
    const list = await kind.createList(t.db, owner, { title: 'Household', sharedWith: [reader] });
    const item = await kind.addItem(t.db, list, { label: 'Fix the tap' });
    return { list, item };
  }

  const reads = (listId: number, itemId: number): Call[] => [
    ['GET', `${kind.api}/${listId}/`],
    ['GET', `${kind.api}/items/${itemId}/`],
  ];

  /** Every change, each with a valid body: only the permission can refuse it. */
  const writes = (listId: number, itemId: number): Call[] => [
    ['PATCH', `${kind.api}/${listId}/`, { title: 'Taken over' }],
    ['POST', `${kind.api}/${listId}/items/`, { [kind.label]: 'Sneaky item' }],
    ['PATCH', `${kind.api}/items/${itemId}/`, { [kind.json.done]: true }],
    ['DELETE', `${kind.api}/items/${itemId}/`],
    ['POST', `${kind.api}/${listId}/share/`, { username: other.username, action: 'add' }],
    ['POST', `${kind.api}/${listId}/share/`, { username: reader.username, action: 'remove' }],
    ['DELETE', `${kind.api}/${listId}/`],
  ];

  describe('owner', () => {
    it('lists, reads and makes every change', async () => {
      const { list, item } = await scenario();
      expect(results(await as.owner.get(`${kind.api}/?limit=100`)).map((row) => row.id)).toContain(list.id);
      expect(await answers(as.owner, reads(list.id, item.id))).toEqual(all(reads(list.id, item.id), 200));
      const statuses = Object.values(await answers(as.owner, writes(list.id, item.id)));
      expect(statuses).toEqual([200, 201, 200, 204, 200, 200, 204]);
    });

    it('with a read-only token reads, and every change is a 403 that changes nothing', async () => {
      const { list, item } = await scenario();
      expect(await answers(as.ownerReadOnly, reads(list.id, item.id))).toEqual(all(reads(list.id, item.id), 200));
      const create: Call = ['POST', `${kind.api}/`, { title: 'New' }];
      const before = await listTablesSnapshot(t.db);
      const calls = [create, ...writes(list.id, item.id)];
      expect(await answers(as.ownerReadOnly, calls)).toEqual(all(calls, 403));
      expect((await as.ownerReadOnly.patch(`${kind.api}/${list.id}/`, { title: 'x' })).data.error?.code).toBe('forbidden');
      expect(await listTablesSnapshot(t.db)).toEqual(before);
    });
  });

  describe('user the list is shared with', () => {
    it('finds it in the collection and reads it and its items, without the shares', async () => {
      const { list, item } = await scenario();
      const listed = results(await as.reader.get(`${kind.api}/?limit=100`)).find((row) => row.id === (list.id as never));
      expect(listed).toMatchObject({ title: 'Household', owner: owner.username, shares: null });
      expect(await answers(as.reader, reads(list.id, item.id))).toEqual(all(reads(list.id, item.id), 200));
      expect((await as.reader.get(`${kind.api}/${list.id}/`)).data.shares).toBeNull();
    });

    it('gets 404 for every change, and nothing changes', async () => {
      const { list, item } = await scenario();
      const before = await listTablesSnapshot(t.db);
      expect(await answers(as.reader, writes(list.id, item.id))).toEqual(all(writes(list.id, item.id), 404));
      expect(await listTablesSnapshot(t.db)).toEqual(before);
    });

    it('loses access at once when the owner stops sharing', async () => {
      const { list } = await scenario();
      expect((await as.owner.post(`${kind.api}/${list.id}/share/`, { username: reader.username, action: 'remove' })).statusCode).toBe(200);
      expect((await as.reader.get(`${kind.api}/${list.id}/`)).statusCode).toBe(404);
      expect(results(await as.reader.get(`${kind.api}/?limit=100`)).map((row) => row.id)).not.toContain(list.id);
    });
  });

  describe('stranger', () => {
    it('does not find the list, gets 404 for every read and change, and nothing changes', async () => {
      const { list, item } = await scenario();
      expect(results(await as.stranger.get(`${kind.api}/?limit=100`)).map((row) => row.id)).not.toContain(list.id);
      const before = await listTablesSnapshot(t.db);
      const calls = [...reads(list.id, item.id), ...writes(list.id, item.id)];
      expect(await answers(as.stranger, calls)).toEqual(all(calls, 404));
      expect(await listTablesSnapshot(t.db)).toEqual(before);
    });

    it('gets the same 404 for a hidden list as for an absent one, and for ids that are not ids', async () => {
      const { list } = await scenario();
      const hidden = await as.stranger.get(`${kind.api}/${list.id}/`);
      const absent = await as.stranger.get(`${kind.api}/2147483647/`);
      expect([hidden.statusCode, hidden.body]).toEqual([404, absent.body]);
      expect(hidden.data.error?.code).toBe('not_found');
      for (const path of ['abc/', '0/', '99999999999/', '1e3/', 'items/99999999999/'].map((rest) => `${kind.api}/${rest}`)) {
        expect((await as.stranger.get(path)).statusCode, path).toBe(404);
        expect((await as.owner.patch(path, { title: 'x' })).statusCode, path).toBe(404);
      }
    });
  });

  describe('no credentials', () => {
    it('is a 401, never a redirect to the login page', async () => {
      const response = await new ApiClient(t.app, null).get(`${kind.api}/`);
      expect(response.statusCode).toBe(401);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { ApiClient, buildTestApp, createToken, createUser, LIST_KINDS, listTablesSnapshot, loggedIn, notificationsOf, results, type TestApp, type TestBrowser } from '../../../test/index.js';

// The owner's use of the lists API, its validation, paging and ETags. Who else may do what:
// api-permissions.test.ts; what only shopping lists have (groups, money): shopping/api.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

describe.each(LIST_KINDS)('$noun', (kind) => {
  const rows = () => kind.rows(t.db);
  // An owner for each kind: the API's rate limit counts an account's calls.
  let owner: { user: User; browser: TestBrowser };
  let reader: User;
  let api: ApiClient;

  beforeAll(async () => {
    owner = await loggedIn(t);
    reader = await createUser(t.db);
    api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
  });

  describe('owner', () => {
    it('creates a list: 201 with the object and its Location', async () => {
      const response = await api.post(`${kind.api}/`, { title: '  Garden  ', [kind.detail]: 'Spring' });
      expect(response.statusCode).toBe(201);
      const { id } = response.data;
      expect(response.headers.location).toBe(`${kind.api}/${id}/`);
      expect(response.data).toMatchObject({ title: 'Garden', [kind.detail]: 'Spring', owner: owner.user.username, shares: [], items: [] });
      expect(String(response.data.created_at)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(await rows().list(Number(id))).toMatchObject({ owner_id: owner.user.id, title: 'Garden', [kind.detail]: 'Spring' });
    });

    it('reads a list with its items, open ones first, and who it is shared with', async () => {
      const list = await kind.createList(t.db, owner.user, { title: 'House', sharedWith: [reader] });
      await kind.addItem(t.db, list, { label: 'Done one', done: true, position: 0 });
      const open = await kind.addItem(t.db, list, { label: 'Open one', position: 1 });
      const response = await api.get(`${kind.api}/${list.id}/`);
      expect(response.statusCode).toBe(200);
      expect(response.data.shares).toEqual([{ username: reader.username, permission: 'read' }]);
      expect((response.data.items as unknown as Record<string, string>[]).map((item) => item[kind.label])).toEqual(['Open one', 'Done one']);
      expect(response.data.items?.[0]).toMatchObject({ id: open.id, list: list.id, [kind.json.done]: false });
    });

    it('changes only the fields sent', async () => {
      const list = await kind.createList(t.db, owner.user, { title: 'Old', detail: 'Kept' });
      const response = await api.patch(`${kind.api}/${list.id}/`, { title: 'New' });
      expect(response.statusCode).toBe(200);
      expect(response.data).toMatchObject({ title: 'New', [kind.detail]: 'Kept' });
      expect(await rows().list(list.id)).toMatchObject({ title: 'New', [kind.detail]: 'Kept' });
    });

    it('adds an item (201, Location readable), ticks it and unticks it, and deletes it', async () => {
      const list = await kind.createList(t.db, owner.user);
      const added = await api.post(`${kind.api}/${list.id}/items/`, kind.apiItemSample.body);
      expect(added.statusCode).toBe(201);
      expect(added.data).toMatchObject({ list: list.id, ...kind.apiItemSample.json, [kind.json.done]: false });
      expect((await api.get(added.headers.location as string)).data).toEqual(added.data);
      const itemId = Number(added.data.id);
      const item = `${kind.api}/items/${itemId}/`;
      // Setting, not flipping: the same request twice leaves it ticked.
      for (let i = 0; i < 2; i++) expect((await api.patch(item, { [kind.json.done]: true })).data[kind.json.done]).toBe(true);
      expect((await rows().done(itemId)).done).toBe(1);
      expect((await api.patch(item, { [kind.json.done]: false })).data[kind.json.done]).toBe(false);
      expect((await rows().done(itemId)).done).toBe(0);
      expect((await api.delete(item)).statusCode).toBe(204);
      expect(await rows().items(list.id)).toEqual([]);
    });

    it('shares by username in any case, which notifies the user once, and stops sharing', async () => {
      const list = await kind.createList(t.db, owner.user, { title: 'Trip' });
      const friend = await createUser(t.db);
      for (let i = 0; i < 2; i++) {
        const added = await api.post(`${kind.api}/${list.id}/share/`, { username: friend.username.toUpperCase(), action: 'add', permission: 'read' });
        expect([added.statusCode, added.data.shares]).toEqual([200, [{ username: friend.username, permission: 'read' }]]);
      }
      expect(await notificationsOf(t.db, friend)).toEqual([{ kind: 'list.shared', text: kind.sharedNotice(owner.user.username, 'Trip'), link: `${kind.base}/${list.id}/` }]);
      const removed = await api.post(`${kind.api}/${list.id}/share/`, { username: friend.username, action: 'remove' });
      expect([removed.statusCode, removed.data.shares]).toEqual([200, []]);
    });

    it('deletes a list with its items and shares', async () => {
      const list = await kind.createList(t.db, owner.user, { sharedWith: [reader] });
      await kind.addItem(t.db, list);
      expect((await api.delete(`${kind.api}/${list.id}/`)).statusCode).toBe(204);
      expect(await rows().list(list.id)).toBeUndefined();
      expect(await rows().items(list.id)).toEqual([]);
      expect(await rows().shares(list.id)).toEqual([]);
      expect((await api.get(`${kind.api}/${list.id}/`)).statusCode).toBe(404);
    });
  });

  describe('invalid bodies', () => {
    it('answer 400 with messages per field, and change nothing', async () => {
      const list = await kind.createList(t.db, owner.user, { title: 'Mine' });
      const item = await kind.addItem(t.db, list);
      const cases: [string, string, unknown, string][] = [
        ['POST', `${kind.api}/`, { title: '' }, 'title'],
        ['POST', `${kind.api}/`, { title: '   ' }, 'title'],
        ['POST', `${kind.api}/`, { title: 'x'.repeat(201) }, 'title'],
        ['POST', `${kind.api}/`, { [kind.detail]: 'no title' }, 'title'],
        ['POST', `${kind.api}/`, { title: 'ok', owner: reader.username }, '__all__'],
        ['POST', `${kind.api}/`, { title: 'ok', [kind.detail]: 7 }, kind.detail],
        ['PATCH', `${kind.api}/${list.id}/`, { title: '' }, 'title'],
        ['PATCH', `${kind.api}/${list.id}/`, { owner: reader.username }, '__all__'],
        ['PATCH', `${kind.api}/${list.id}/`, { [kind.detail]: 'd'.repeat(kind.detailMax.length + 1) }, kind.detail],
        ['POST', `${kind.api}/${list.id}/items/`, { [kind.label]: '' }, kind.label],
        ['PATCH', `${kind.api}/items/${item.id}/`, { [kind.json.done]: 'yes' }, kind.json.done],
        ['PATCH', `${kind.api}/items/${item.id}/`, { [kind.json.done]: 1 }, kind.json.done],
        ['PATCH', `${kind.api}/items/${item.id}/`, {}, kind.json.done],
        ['POST', `${kind.api}/${list.id}/share/`, { username: 'nobody-by-this-name', action: 'add' }, 'username'],
        ['POST', `${kind.api}/${list.id}/share/`, { username: owner.user.username, action: 'add' }, 'username'],
        ['POST', `${kind.api}/${list.id}/share/`, { username: reader.username, action: 'remove' }, 'username'],
        ['POST', `${kind.api}/${list.id}/share/`, { username: reader.username, action: 'add', permission: 'write' }, 'permission'],
        ['POST', `${kind.api}/${list.id}/share/`, { username: reader.username }, 'action'],
      ];
      const before = await listTablesSnapshot(t.db);
      for (const [method, path, body, field] of cases) {
        const response = await api.request(method, path, { body });
        const label = `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`;
        expect(response.statusCode, label).toBe(400);
        expect(response.data.error?.code, label).toBe('invalid');
        expect(Object.keys(response.data.error?.fields ?? {}), label).toContain(field);
      }
      expect(await listTablesSnapshot(t.db)).toEqual(before);
    });

    it('uses the forms’ words', async () => {
      const response = await api.post(`${kind.api}/`, { title: '' });
      expect(response.data.error?.fields).toEqual({ title: ['Enter a title.'] });
    });
  });

  describe('paging', () => {
    it('pages through the lists, most recently changed first, with next', async () => {
      const user = await createUser(t.db);
      const client = new ApiClient(t.app, { token: await createToken(t.db, user) });
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await kind.createList(t.db, user, { title: `L${i}` })).id);
      // All with the same updated_at: the id breaks the tie, so none is skipped or repeated.
      await rows().setUpdatedAt(ids, 1_000);
      const first = await client.get(`${kind.api}/?limit=2`);
      expect(results(first).map((list) => list.id)).toEqual([ids[2], ids[1]]);
      expect(first.data.next).not.toBeNull();
      const second = await client.get(pathOf(String(first.data.next)));
      expect(results(second).map((list) => list.id)).toEqual([ids[0]]);
      expect(second.data.next).toBeNull();
    });

    it('refuses a cursor that is not one of ours (400), and a limit past 100', async () => {
      for (const query of ['cursor=not-ours', 'cursor=bm90LWEtY3Vyc29y', 'cursor=WzEsOTk5OTk5OTk5OTk5XQ', 'limit=101', 'limit=0']) {
        const response = await api.get(`${kind.api}/?${query}`);
        expect(response.statusCode, query).toBe(400);
      }
    });
  });

  describe('ETags', () => {
    it('answer 304 to If-None-Match with the current ETag, 200 once the list changed', async () => {
      const list = await kind.createList(t.db, owner.user);
      const etag = String((await api.get(`${kind.api}/${list.id}/`)).headers.etag);
      expect((await api.get(`${kind.api}/${list.id}/`, { headers: { 'if-none-match': etag } })).statusCode).toBe(304);
      await kind.addItem(t.db, list, { label: 'New' });
      expect((await api.get(`${kind.api}/${list.id}/`, { headers: { 'if-none-match': etag } })).statusCode).toBe(200);
    });

    it('refuse a PATCH with an old ETag (412, nothing changed) and take one with the new', async () => {
      const list = await kind.createList(t.db, owner.user, { title: 'Start' });
      const old = String((await api.get(`${kind.api}/${list.id}/`)).headers.etag);
      expect((await owner.browser.post(`${kind.base}/${list.id}/edit/`, kind.listForm('From the page'))).statusCode).toBe(302);
      const refused = await api.patch(`${kind.api}/${list.id}/`, { title: 'From the API' }, { headers: { 'if-match': old } });
      expect([refused.statusCode, refused.data.error?.code]).toEqual([412, 'precondition_failed']);
      expect((await rows().list(list.id))?.title).toBe('From the page');
      const fresh = String((await api.get(`${kind.api}/${list.id}/`)).headers.etag);
      const taken = await api.patch(`${kind.api}/${list.id}/`, { title: 'From the API' }, { headers: { 'if-match': fresh } });
      expect([taken.statusCode, taken.data.title]).toEqual([200, 'From the API']);
    });

    it('let only one of two PATCHes made with the same ETag through', async () => {
      const list = await kind.createList(t.db, owner.user);
      const etag = String((await api.get(`${kind.api}/${list.id}/`)).headers.etag);
      const answers = await Promise.all(['One', 'Two'].map((title) => api.patch(`${kind.api}/${list.id}/`, { title }, { headers: { 'if-match': etag } })));
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 412]);
    });

    it('refuse ticking an item with an old ETag', async () => {
      const list = await kind.createList(t.db, owner.user);
      const item = await kind.addItem(t.db, list);
      const old = String((await api.get(`${kind.api}/items/${item.id}/`)).headers.etag);
      expect((await owner.browser.post(`${kind.base}/items/${item.id}/toggle/`)).statusCode).toBe(302);
      const refused = await api.patch(`${kind.api}/items/${item.id}/`, { [kind.json.done]: false }, { headers: { 'if-match': old } });
      expect(refused.statusCode).toBe(412);
      expect((await rows().done(item.id)).done).toBe(1);
    });
  });
});

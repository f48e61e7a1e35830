import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createUser, LIST_KINDS, listTablesSnapshot, loggedIn, type TestApp, TestBrowser } from '../../../test/index.js';

// Who may do what on a list's pages: the owner reads and changes; a user it is shared with reads;
// anyone else gets the 404 of an absent list, and nothing changes. These shares have the `read`
// permission; `tick` is in tick-permissions.test.ts, a shopping list's group in
// shopping/group-permissions.test.ts.

type Caller = { user: User; browser: TestBrowser };
let t: TestApp;
let owner: Caller;
let reader: Caller;
let stranger: Caller;
let other: User;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  reader = await loggedIn(t);
  stranger = await loggedIn(t);
  other = await createUser(t.db);
});
afterAll(() => t.close());

const send = (browser: TestBrowser, method: string, path: string, form: Record<string, string>) => (method === 'GET' ? browser.get(path) : browser.post(path, form));
const CONTROLS = ['/edit/', '/delete/', '/share/', '/items/add/', '/toggle/'];

describe.each(LIST_KINDS)('$noun', (kind) => {
  const rows = () => kind.rows(t.db);

  /** A fresh list of the owner's, shared with the reader, with one open item. */
  async function scenario() {
    const list = await kind.createList(t.db, owner.user, { title: 'Household', sharedWith: [reader.user] });
    const item = await kind.addItem(t.db, list, { label: 'Fix the tap' });
    return { list, item };
  }

  /** Every way to change a list or its items, as [method, path, form]. */
  const changes = (listId: number, itemId: number): [string, string, Record<string, string>][] => [
    ['GET', `${kind.base}/${listId}/edit/`, {}],
    ['POST', `${kind.base}/${listId}/edit/`, kind.listForm('Taken over')],
    ['GET', `${kind.base}/${listId}/delete/`, {}],
    ['POST', `${kind.base}/${listId}/delete/`, {}],
    ['POST', `${kind.base}/${listId}/share/`, { username: other.username, action: 'add' }],
    ['POST', `${kind.base}/${listId}/share/`, { username: reader.user.username, action: 'remove' }],
    ['POST', `${kind.base}/${listId}/items/add/`, kind.itemForm('Sneaky item')],
    ['POST', `${kind.base}/${listId}/items/add/`, kind.invalidItemForm],
    ['POST', `${kind.base}/items/${itemId}/toggle/`, {}],
    ['POST', `${kind.base}/items/${itemId}/delete/`, {}],
  ];

  async function expectEveryChangeRefused(caller: Caller) {
    const { list, item } = await scenario();
    const before = await listTablesSnapshot(t.db);
    for (const [method, path, form] of changes(list.id, item.id)) {
      expect((await send(caller.browser, method, path, form)).statusCode, `${method} ${path}`).toBe(404);
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  }

  describe('owner', () => {
    it('sees it under "Mine", shared with one person, and reads it with edit controls', async () => {
      const { list } = await scenario();
      const index = await owner.browser.get(`${kind.base}/`);
      expect(index.statusCode).toBe(200);
      const mine = index.body.split('id="shared"')[0]!;
      expect(mine).toContain(`href="${kind.base}/${list.id}/"`);
      expect(mine).toContain('shared with 1 person');
      const page = await owner.browser.get(`${kind.base}/${list.id}/`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`action="${kind.base}/${list.id}/items/add/"`);
      expect(page.body).toContain(`href="${kind.base}/${list.id}/edit/"`);
      expect(page.body).toContain(reader.user.username);
    });

    it('edits the title and the other fields', async () => {
      const { list } = await scenario();
      expect((await owner.browser.get(`${kind.base}/${list.id}/edit/`)).statusCode).toBe(200);
      const response = await owner.browser.post(`${kind.base}/${list.id}/edit/`, kind.listForm('Renamed', 'All of it'));
      expect([response.statusCode, response.headers.location]).toEqual([302, `${kind.base}/${list.id}/`]);
      expect(await rows().list(list.id)).toMatchObject({ title: 'Renamed', [kind.detail]: 'All of it' });
    });

    it('confirms, then deletes the list with its items and shares', async () => {
      const { list } = await scenario();
      const confirm = await owner.browser.get(`${kind.base}/${list.id}/delete/`);
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain(`action="${kind.base}/${list.id}/delete/"`);
      const response = await owner.browser.post(`${kind.base}/${list.id}/delete/`);
      expect([response.statusCode, response.headers.location]).toEqual([302, `${kind.base}/`]);
      expect(await rows().list(list.id)).toBeUndefined();
      expect(await rows().items(list.id)).toEqual([]);
      expect(await rows().shares(list.id)).toEqual([]);
    });

    it('shares with a user by name, in any case, and removes them again', async () => {
      const { list } = await scenario();
      const shared = async () => (await rows().shares(list.id)).map((share) => share.user_id);
      const added = await owner.browser.post(`${kind.base}/${list.id}/share/`, { username: other.username.toUpperCase(), action: 'add' });
      expect([added.statusCode, added.headers.location]).toEqual([302, `${kind.base}/${list.id}/`]);
      expect(await shared()).toEqual([reader.user.id, other.id]);
      const removed = await owner.browser.post(`${kind.base}/${list.id}/share/`, { username: other.username, action: 'remove' });
      expect(removed.statusCode).toBe(302);
      expect(await shared()).toEqual([reader.user.id]);
    });

    it('adds, ticks, unticks and deletes items, each time back to the list', async () => {
      const { list, item } = await scenario();
      const [first] = await rows().items(list.id);
      const added = await owner.browser.post(`${kind.base}/${list.id}/items/add/`, kind.itemSample.form);
      expect([added.statusCode, added.headers.location]).toEqual([302, `${kind.base}/${list.id}/#add-item`]);
      const [unchanged, stored, ...more] = await rows().items(list.id);
      expect([unchanged, more]).toEqual([first, []]);
      expect(stored).toMatchObject(kind.itemSample.stored);
      expect(await rows().done(stored!.id)).toEqual({ done: 0, by: null, at: null });

      const toggled = await owner.browser.post(`${kind.base}/items/${item.id}/toggle/`);
      expect([toggled.statusCode, toggled.headers.location]).toEqual([302, `${kind.base}/${list.id}/#item-${item.id}`]);
      expect((await rows().done(item.id)).done).toBe(1);
      await owner.browser.post(`${kind.base}/items/${item.id}/toggle/`);
      expect((await rows().done(item.id)).done).toBe(0);

      const deleted = await owner.browser.post(`${kind.base}/items/${item.id}/delete/`);
      expect([deleted.statusCode, deleted.headers.location]).toEqual([302, `${kind.base}/${list.id}/#live-list`]);
      expect(await rows().item(item.id)).toBeUndefined();
    });
  });

  describe('user the list is shared with', () => {
    it('sees it under "Shared with me" with the owner\'s name, and reads it without edit controls', async () => {
      const { list } = await scenario();
      const [mine, shared] = (await reader.browser.get(`${kind.base}/`)).body.split('id="shared"') as [string, string];
      expect(mine).not.toContain(`href="${kind.base}/${list.id}/"`);
      expect(shared).toContain(`href="${kind.base}/${list.id}/"`);
      expect(shared).toContain(owner.user.username);
      const page = await reader.browser.get(`${kind.base}/${list.id}/`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Fix the tap');
      expect(page.body).toContain(owner.user.username);
      for (const control of CONTROLS) expect(page.body, control).not.toContain(control);
    });

    it('gets 404 for every change, and nothing changes', () => expectEveryChangeRefused(reader));

    it('loses access at once when the owner removes them', async () => {
      const { list } = await scenario();
      expect((await reader.browser.get(`${kind.base}/${list.id}/`)).statusCode).toBe(200);
      const removed = await owner.browser.post(`${kind.base}/${list.id}/share/`, { username: reader.user.username, action: 'remove' });
      expect(removed.statusCode).toBe(302);
      expect((await reader.browser.get(`${kind.base}/${list.id}/`)).statusCode).toBe(404);
      expect((await reader.browser.get(`${kind.base}/`)).body).not.toContain(`href="${kind.base}/${list.id}/"`);
    });
  });

  describe('stranger', () => {
    it('does not see the list in the index and gets 404 for reading it', async () => {
      const { list } = await scenario();
      expect((await stranger.browser.get(`${kind.base}/`)).body).not.toContain(`${kind.base}/${list.id}/`);
      expect((await stranger.browser.get(`${kind.base}/${list.id}/`)).statusCode).toBe(404);
    });

    it('gets 404 for every change, and nothing changes', () => expectEveryChangeRefused(stranger));

    it('gets the same 404 for an absent list and for ids that are not ids', async () => {
      const absent = await stranger.browser.get(`${kind.base}/999999/`);
      const { list } = await scenario();
      const hidden = await stranger.browser.get(`${kind.base}/${list.id}/`);
      // The masked CSRF token differs on every page; everything else must be identical.
      const unmasked = (body: string) => body.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, '');
      expect(hidden.statusCode).toBe(404);
      expect(unmasked(hidden.body)).toBe(unmasked(absent.body));
      for (const id of ['abc', '0', '-1', '1e3', '2147483648', '99999999999']) {
        expect((await stranger.browser.get(`${kind.base}/${id}/`)).statusCode, id).toBe(404);
      }
      for (const path of [`${kind.base}/items/99999999999/toggle/`, `${kind.base}/items/x/delete/`]) {
        expect((await stranger.browser.post(path)).statusCode, path).toBe(404);
      }
    });
  });

  describe('anonymous caller', () => {
    it('is sent to the login page', async () => {
      const response = await new TestBrowser(t.app).get(`${kind.base}/`);
      expect([response.statusCode, response.headers.location]).toEqual([302, `/accounts/login/?next=${encodeURIComponent(`${kind.base}/`)}`]);
    });
  });
});

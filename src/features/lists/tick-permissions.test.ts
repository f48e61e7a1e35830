import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createUser, LIST_KINDS, listTablesSnapshot, loggedIn, type TestApp, TestBrowser } from '../../../test/index.js';

// The tick permission on list pages, action by action and role by role: the roles that may act
// first, then every refused role gets the 404 of an absent list and nothing changes. A shopping
// list's group with the tick permission: shopping/group-permissions.test.ts.

type Caller = { user: User; browser: TestBrowser };
type Role = 'owner' | 'tick user' | 'read user' | 'stranger';
type Act = (ids: { listId: number; itemId: number }) => Promise<{ statusCode: number }>;

let t: TestApp;
let owner: Caller;
let ticker: Caller;
let reader: Caller;
let stranger: Caller;
let other: User;

beforeAll(async () => {
  t = await buildTestApp();
  [owner, ticker, reader, stranger] = [await loggedIn(t), await loggedIn(t), await loggedIn(t), await loggedIn(t)];
  other = await createUser(t.db);
});
afterAll(() => t.close());

const caller = (role: Role): Caller => ({ owner, 'tick user': ticker, 'read user': reader, stranger })[role];
const MAY_TICK = ['owner', 'tick user'] as const;
const MAY_NOT_TICK = ['read user', 'stranger'] as const;

describe.each(LIST_KINDS)('$noun', (kind) => {
  const rows = () => kind.rows(t.db);

  async function scenario() {
    const list = await kind.createList(t.db, owner.user, { sharedWith: [reader.user], tickers: [ticker.user] });
    const item = await kind.addItem(t.db, list, { label: 'Water the plants' });
    return { list, item };
  }

  async function expectRefused(role: Role, act: Act) {
    const { list, item } = await scenario();
    const before = await listTablesSnapshot(t.db);
    expect((await act({ listId: list.id, itemId: item.id })).statusCode, role).toBe(404);
    expect(await listTablesSnapshot(t.db), role).toEqual(before);
  }

  describe('adding an item', () => {
    it('is allowed to the owner and a tick user, recording who added it; refused (404) to a read user and a stranger', async () => {
      for (const role of MAY_TICK) {
        const { list } = await scenario();
        const response = await caller(role).browser.post(`${kind.base}/${list.id}/items/add/`, kind.itemForm(`Task of ${role}`));
        expect([response.statusCode, response.headers.location], role).toEqual([302, `${kind.base}/${list.id}/#add-item`]);
        const [, added, ...more] = await rows().items(list.id);
        expect([added, more], role).toMatchObject([{ [kind.label]: `Task of ${role}`, created_by: caller(role).user.id, ...kind.appended }, []]);
      }
      for (const role of MAY_NOT_TICK) {
        await expectRefused(role, ({ listId }) => caller(role).browser.post(`${kind.base}/${listId}/items/add/`, kind.itemForm('Sneaky')));
        // An invalid form is the same 404: the permission is checked before the form.
        await expectRefused(role, ({ listId }) => caller(role).browser.post(`${kind.base}/${listId}/items/add/`, kind.invalidItemForm));
      }
    });
  });

  describe('ticking an item', () => {
    it('is allowed to the owner and a tick user, recording who and when, cleared when unticked; refused (404) to a read user and a stranger', async () => {
      for (const role of MAY_TICK) {
        const { list, item } = await scenario();
        const before = Date.now();
        const response = await caller(role).browser.post(`${kind.base}/items/${item.id}/toggle/`);
        expect([response.statusCode, response.headers.location], role).toEqual([302, `${kind.base}/${list.id}/#item-${item.id}`]);
        const ticked = await rows().done(item.id);
        expect([ticked.done, ticked.by], role).toEqual([1, caller(role).user.id]);
        expect(ticked.at, role).toBeGreaterThanOrEqual(before);
        await caller(role).browser.post(`${kind.base}/items/${item.id}/toggle/`);
        expect(await rows().done(item.id), role).toEqual({ done: 0, by: null, at: null });
      }
      for (const role of MAY_NOT_TICK) await expectRefused(role, ({ itemId }) => caller(role).browser.post(`${kind.base}/items/${itemId}/toggle/`));
    });
  });

  describe('owner-only actions', () => {
    const actions: [string, (browser: TestBrowser, ids: { listId: number; itemId: number }) => Promise<{ statusCode: number }>][] = [
      ['delete an item', (browser, { itemId }) => browser.post(`${kind.base}/items/${itemId}/delete/`)],
      ['edit the list', (browser, { listId }) => browser.post(`${kind.base}/${listId}/edit/`, kind.listForm('Renamed'))],
      ['delete the list', (browser, { listId }) => browser.post(`${kind.base}/${listId}/delete/`)],
      ['share the list', (browser, { listId }) => browser.post(`${kind.base}/${listId}/share/`, { username: other.username, action: 'add', permission: 'tick' })],
      ['change a share', (browser, { listId }) => browser.post(`${kind.base}/${listId}/share/`, { username: reader.user.username, action: 'add', permission: 'tick' })],
    ];
    for (const [name, act] of actions) {
      it(`${name}: the owner may; a tick user gets 404 like a read user and a stranger`, async () => {
        const { list, item } = await scenario();
        expect((await act(owner.browser, { listId: list.id, itemId: item.id })).statusCode).toBe(302);
        for (const role of ['tick user', ...MAY_NOT_TICK] as const) await expectRefused(role, (ids) => act(caller(role).browser, ids));
      });
    }
  });

  describe('the list page', () => {
    it('shows a tick user tick buttons and the add form, without delete, edit or share controls', async () => {
      const { list, item } = await scenario();
      const page = (await ticker.browser.get(`${kind.base}/${list.id}/`)).body;
      expect(page).toContain(`action="${kind.base}/items/${item.id}/toggle/"`);
      expect(page).toContain(`action="${kind.base}/${list.id}/items/add/"`);
      expect(page).toContain('You can tick and add items');
      for (const control of ['/delete/', '/edit/', '/share/']) expect(page, control).not.toContain(control);
    });

    it('shows a read user no tick buttons and no add form', async () => {
      const { list } = await scenario();
      const page = (await reader.browser.get(`${kind.base}/${list.id}/`)).body;
      expect(page).toContain('Water the plants');
      for (const control of ['/toggle/', '/items/add/', '/delete/', '/edit/', '/share/']) expect(page, control).not.toContain(control);
    });

    it('shows who added an item and who ticked it, and when', async () => {
      const { list } = await scenario();
      await ticker.browser.post(`${kind.base}/${list.id}/items/add/`, kind.itemForm('Buy stamps'));
      const [, stamps] = await rows().items(list.id);
      await owner.browser.post(`${kind.base}/items/${stamps!.id}/toggle/`);
      const page = (await reader.browser.get(`${kind.base}/${list.id}/`)).body;
      expect(page).toContain(`added by ${ticker.user.username} · ${kind.doneWord} by ${owner.user.username} <time datetime=`);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createGroup, createUser, LIST_KINDS, listTablesSnapshot, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

// The owner's sharing box: sharing by username and changing a share's permission. A list's group
// is chosen on its own form (group-lists.test.ts): there is no "share with a group's members"
// any more, and the shares it made stay as shares by name. Who may share at all: permissions.test.ts.

type Caller = { user: User; browser: TestBrowser };
let t: TestApp;
let owner: Caller;
let ticker: Caller;
let reader: Caller;
let friend: User;
let emile: User;

beforeAll(async () => {
  t = await buildTestApp();
  [owner, ticker, reader] = [await loggedIn(t), await loggedIn(t), await loggedIn(t)];
  friend = await createUser(t.db);
  emile = await createUser(t.db, { username: 'Émile' });
});
afterAll(() => t.close());

describe.each(LIST_KINDS)('$noun', (kind) => {
  const rows = () => kind.rows(t.db);
  const share = (listId: number, form: Record<string, string | undefined>) => owner.browser.post(`${kind.base}/${listId}/share/`, form);

  describe('sharing by username', () => {
    it('refuses an unknown username on the list page (400) and stores nothing', async () => {
      const list = await kind.createList(t.db, owner.user, { title: 'Mine' });
      const response = await share(list.id, { username: 'nobody-by-this-name', action: 'add' });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('<h1>Mine</h1>');
      expect(response.body).toContain('There is no user named “nobody-by-this-name”.');
      expect(await rows().shares(list.id)).toEqual([]);
    });

    it("refuses the owner's own name, in any case", async () => {
      const list = await kind.createList(t.db, owner.user);
      const response = await share(list.id, { username: owner.user.username.toUpperCase(), action: 'add' });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('This is your own list');
      expect(await rows().shares(list.id)).toEqual([]);
    });

    it('refuses a missing action, a 10,000-character name, and removing someone not on the list', async () => {
      const list = await kind.createList(t.db, owner.user);
      const cases = [{ username: friend.username }, { username: 'x'.repeat(10_000), action: 'add' }, { username: friend.username, action: 'remove' }];
      for (const form of cases) expect((await share(list.id, form)).statusCode, JSON.stringify(form).slice(0, 60)).toBe(400);
      expect(await rows().shares(list.id)).toEqual([]);
    });

    it('shares with Émile when the owner types ÉMILE or émile', async () => {
      for (const typed of ['ÉMILE', 'émile']) {
        const list = await kind.createList(t.db, owner.user);
        const response = await share(list.id, { username: typed, action: 'add' });
        expect(response.statusCode, typed).toBe(302);
        expect(await rows().shares(list.id)).toEqual([{ user_id: emile.id, permission: 'read' }]);
      }
    });

    it('adding someone twice keeps one share', async () => {
      const list = await kind.createList(t.db, owner.user);
      for (let i = 0; i < 2; i++) await share(list.id, { username: friend.username, action: 'add' });
      expect(await rows().shares(list.id)).toEqual([{ user_id: friend.id, permission: 'read' }]);
    });
  });

  describe('no more sharing with a group’s members, one share each', () => {
    it('offers no such form (the list’s group is on its own form), and refuses its post (400), nothing shared', async () => {
      const group = await createGroup(t.db, owner.user, [await createUser(t.db), reader.user]);
      const list = await kind.createList(t.db, owner.user);
      const page = (await owner.browser.get(`${kind.base}/${list.id}/`)).body;
      expect(page).not.toContain('add_group');
      expect(page).toContain(`href="${kind.base}/${list.id}/edit/">on the list’s edit page</a>`);
      const before = await listTablesSnapshot(t.db);
      const response = await share(list.id, { action: 'add_group', group: String(group.id), permission: 'tick' });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('Enter a username.');
      expect(await listTablesSnapshot(t.db)).toEqual(before);
      // Not the owner: the same 404 as a missing list.
      expect((await reader.browser.post(`${kind.base}/${list.id}/share/`, { action: 'add_group', group: String(group.id) })).statusCode).toBe(404);
    });

    it('keeps the shares that form made as shares by name: each stays, its permission with it, after the member leaves the group', async () => {
      const ann = await createUser(t.db);
      const group = await createGroup(t.db, owner.user, [ann, ticker.user]);
      // What the form stored: one share per member of that moment.
      const list = await kind.createList(t.db, owner.user, { sharedWith: [ann], tickers: [ticker.user] });
      const page = (await owner.browser.get(`${kind.base}/${list.id}/`)).body;
      expect(page).toContain(`<strong>${ann.username}</strong> <span class="permission">can read</span>`);
      expect(page).toContain(`<strong>${ticker.user.username}</strong> <span class="permission">can tick and add items</span>`);
      await t.db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', ticker.user.id).execute();
      expect(await rows().shares(list.id)).toEqual([{ user_id: ticker.user.id, permission: 'tick' }, { user_id: ann.id, permission: 'read' }].sort((a, b) => a.user_id - b.user_id));
      const item = await kind.addItem(t.db, list);
      expect((await ticker.browser.post(`${kind.base}/items/${item.id}/toggle/`)).statusCode).toBe(302);
    });
  });

  describe('changing a share’s permission', () => {
    it('sharing again with the other permission changes it, says so, the sharing box shows it, and it applies at once', async () => {
      const list = await kind.createList(t.db, owner.user, { sharedWith: [reader.user] });
      const response = await share(list.id, { username: reader.user.username, action: 'add', permission: 'tick' });
      expect(response.statusCode).toBe(302);
      expect(await rows().shares(list.id)).toEqual([{ user_id: reader.user.id, permission: 'tick' }]);
      const page = (await owner.browser.get(`${kind.base}/${list.id}/`)).body;
      expect(page).toContain(`${reader.user.username} now can tick and add items.`);
      expect(page).toContain(`<strong>${reader.user.username}</strong> <span class="permission">can tick and add items</span>`);
      const item = await kind.addItem(t.db, list);
      expect((await reader.browser.post(`${kind.base}/items/${item.id}/toggle/`)).statusCode).toBe(302);
      await share(list.id, { username: reader.user.username, action: 'add', permission: 'read' });
      expect((await reader.browser.post(`${kind.base}/items/${item.id}/toggle/`)).statusCode).toBe(404);
    });
  });
});

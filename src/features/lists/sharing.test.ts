import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createGroup, createUser, LIST_KINDS, listTablesSnapshot, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

// The owner's sharing box: sharing by username, with every member of one of the owner's groups,
// and changing a share's permission. Who may share at all: permissions.test.ts.

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

  describe('sharing with a group’s members', () => {
    it('adds every member but the owner as an ordinary share in one go, keeping existing shares', async () => {
      const [ann, bob] = [await createUser(t.db), await createUser(t.db)];
      const group = await createGroup(t.db, owner.user, [ann, bob, reader.user]);
      const list = await kind.createList(t.db, owner.user, { sharedWith: [reader.user], tickers: [ticker.user] });
      expect((await owner.browser.get(`${kind.base}/${list.id}/`)).body).toContain('Share with the members of');
      const response = await share(list.id, { action: 'add_group', group: String(group.id), permission: 'tick' });
      expect(response.statusCode).toBe(302);
      expect(await rows().shares(list.id)).toEqual(
        [
          { user_id: ticker.user.id, permission: 'tick' },
          { user_id: reader.user.id, permission: 'read' },
          { user_id: ann.id, permission: 'tick' },
          { user_id: bob.id, permission: 'tick' },
        ].sort((a, b) => a.user_id - b.user_id),
      );
    });

    it('refuses a group the owner is not in, or no group, with a message (400), nothing shared; anyone but the owner gets 404', async () => {
      const outsider = await createUser(t.db);
      const theirs = await createGroup(t.db, outsider, [await createUser(t.db)], 'Not mine');
      const list = await kind.createList(t.db, owner.user, { sharedWith: [reader.user] });
      const before = await listTablesSnapshot(t.db);
      for (const group of [String(theirs.id), '', 'abc', '99999999']) {
        const response = await share(list.id, { action: 'add_group', group });
        expect(response.statusCode, group).toBe(400);
        expect(response.body).toContain('Choose one of your groups.');
      }
      expect(await listTablesSnapshot(t.db)).toEqual(before);
      // Not the owner: the same 404 as a missing list.
      expect((await reader.browser.post(`${kind.base}/${list.id}/share/`, { action: 'add_group', group: String(theirs.id) })).statusCode).toBe(404);
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

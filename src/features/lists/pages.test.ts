import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createUser, LIST_KINDS, listTablesSnapshot, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

// The owner's list pages: creating and editing a list, the item form's checks, the order items
// are shown in, and escaping. Who else may do what: permissions.test.ts.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let friend: User;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  friend = await createUser(t.db);
});
afterAll(() => t.close());

const XSS = '<script>alert("x")</script>';

describe.each(LIST_KINDS)('$noun', (kind) => {
  const rows = () => kind.rows(t.db);

  describe('creating a list', () => {
    it('shows empty states that say what to do next', async () => {
      const fresh = await loggedIn(t);
      const index = await fresh.browser.get(`${kind.base}/`);
      for (const words of kind.emptyIndex) expect(index.body).toContain(words);
      const created = await fresh.browser.post(`${kind.base}/new/`, kind.listForm('Garden'));
      expect(created.statusCode).toBe(302);
      const page = await fresh.browser.get(created.headers.location as string);
      expect(page.body).toContain(kind.emptyList);
      expect(page.body).toContain('Only you can see this list.');
    });

    it('goes to the new list, stored with its owner and a trimmed title', async () => {
      const response = await owner.browser.post(`${kind.base}/new/`, kind.listForm('  Trip  ', 'Things to pack'));
      const row = await rows().newestList();
      expect([response.statusCode, response.headers.location]).toEqual([302, `${kind.base}/${row.id}/`]);
      expect(row).toMatchObject({ owner_id: owner.user.id, title: 'Trip', [kind.detail]: 'Things to pack' });
    });

    it.each([
      ['an empty title', kind.listForm('   '), 'Enter a title.'],
      ['a 10,000-character title', kind.listForm('x'.repeat(10_000)), 'Titles have at most 200 characters.'],
      [`a 10,000-character ${kind.detail}`, kind.listForm('ok', 'x'.repeat(10_000)), kind.detailMax.message],
    ])('refuses %s with a form error and stores nothing', async (_case, form, message) => {
      const before = await listTablesSnapshot(t.db);
      const response = await owner.browser.post(`${kind.base}/new/`, form);
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(message);
      expect(response.body).toContain('aria-invalid="true"');
      expect(await listTablesSnapshot(t.db)).toEqual(before);
    });

    it('refuses repeated fields (an array where a string belongs) with a form error, not a 500', async () => {
      const response = await owner.browser.post(`${kind.base}/new/`, { ...kind.listForm(''), title: ['one', 'two'] });
      expect(response.statusCode).toBe(400);
      const list = await kind.createList(t.db, owner.user);
      const share = await owner.browser.post(`${kind.base}/${list.id}/share/`, { username: [friend.username, friend.username], action: 'add' });
      expect(share.statusCode).toBe(400);
    });

    it('shows the typed values again on an error', async () => {
      const response = await owner.browser.post(`${kind.base}/new/`, kind.listForm('', 'keep me'));
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(kind.detailShown('keep me'));
    });

    it('refuses an invalid edit and keeps the list as it was', async () => {
      const list = await kind.createList(t.db, owner.user, { title: 'Before' });
      const response = await owner.browser.post(`${kind.base}/${list.id}/edit/`, kind.listForm(''));
      expect(response.statusCode).toBe(400);
      expect((await rows().list(list.id))?.title).toBe('Before');
    });
  });

  describe('items', () => {
    it('refuses empty and 10,000-character labels, storing nothing', async () => {
      const list = await kind.createList(t.db, owner.user);
      expect((await owner.browser.post(`${kind.base}/${list.id}/items/add/`, kind.itemForm(' '))).statusCode).toBe(400);
      const long = await owner.browser.post(`${kind.base}/${list.id}/items/add/`, kind.itemForm('x'.repeat(10_000)));
      expect(long.statusCode).toBe(400);
      expect(long.body).toContain(kind.labelMaxMessage);
      expect(await rows().items(list.id)).toEqual([]);
    });

    it('lists open items before done ones, and strikes done ones through', async () => {
      const list = await kind.createList(t.db, owner.user);
      await kind.addItem(t.db, list, { label: 'Done thing', done: true, position: 0 });
      await kind.addItem(t.db, list, { label: 'Open thing', position: 1 });
      const body = (await owner.browser.get(`${kind.base}/${list.id}/`)).body;
      expect(body.indexOf('Open thing')).toBeGreaterThan(0);
      expect(body.indexOf('Open thing')).toBeLessThan(body.indexOf('Done thing'));
      expect(body).toContain(kind.struck('Done thing'));
      expect(body).not.toContain(kind.struck('Open thing'));
    });

    it('masks the CSRF secret once per page, not once per form', async () => {
      const list = await kind.createList(t.db, owner.user);
      for (let i = 0; i < 5; i++) await kind.addItem(t.db, list, { label: `Task ${i}`, position: i });
      const body = (await owner.browser.get(`${kind.base}/${list.id}/`)).body;
      const tokens = [...body.matchAll(/name="csrfmiddlewaretoken" value="([^"]+)"/g)].map((match) => match[1]);
      expect(tokens.length).toBeGreaterThan(6);
      expect(new Set(tokens).size).toBe(1);
    });
  });

  describe('escaping', () => {
    it('escapes titles, details and item labels everywhere they are shown', async () => {
      const reader = await loggedIn(t);
      const list = await kind.createList(t.db, owner.user, { title: XSS, detail: XSS, sharedWith: [reader.user] });
      await kind.addItem(t.db, list, { label: XSS });
      const pages = [
        await owner.browser.get(`${kind.base}/`),
        await owner.browser.get(`${kind.base}/${list.id}/`),
        await owner.browser.get(`${kind.base}/${list.id}/edit/`),
        await owner.browser.get(`${kind.base}/${list.id}/delete/`),
        await reader.browser.get(`${kind.base}/`),
        await reader.browser.get(`${kind.base}/${list.id}/`),
      ];
      for (const page of pages) {
        expect(page.statusCode).toBe(200);
        expect(page.body).not.toContain(XSS);
        expect(page.body).toContain('&lt;script>');
      }
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, LIST_KINDS, listTablesSnapshot, loggedIn, type TestApp, TestBrowser } from '../../../test/index.js';

// An item's own pages: editing it and confirming its deletion are the owner's (anyone else gets
// the 404 of an absent item, nothing changed), a failed edit or add shows an error summary on top,
// and a failed add keeps the list's URL. A shopping list's group members: shopping/group-permissions.test.ts.

type Caller = { user: User; browser: TestBrowser };
type Role = 'owner' | 'tick user' | 'read user' | 'stranger';

let t: TestApp;
let owner: Caller;
let ticker: Caller;
let reader: Caller;
let stranger: Caller;

beforeAll(async () => {
  t = await buildTestApp();
  [owner, ticker, reader, stranger] = [await loggedIn(t), await loggedIn(t), await loggedIn(t), await loggedIn(t)];
});
afterAll(() => t.close());

const caller = (role: Role): Caller => ({ owner, 'tick user': ticker, 'read user': reader, stranger })[role];
const NOT_OWNER = ['tick user', 'read user', 'stranger'] as const;

describe.each(LIST_KINDS)('$noun', (kind) => {
  const rows = () => kind.rows(t.db);

  async function scenario() {
    const list = await kind.createList(t.db, owner.user, { title: 'House', sharedWith: [reader.user], tickers: [ticker.user] });
    const item = await kind.addItem(t.db, list, { label: 'Fix the tap', position: 0 });
    return { list, item };
  }

  async function expectRefused(role: Role, act: (ids: { listId: number; itemId: number }) => Promise<{ statusCode: number }>) {
    const { list, item } = await scenario();
    const before = await listTablesSnapshot(t.db);
    expect((await act({ listId: list.id, itemId: item.id })).statusCode, role).toBe(404);
    expect(await listTablesSnapshot(t.db), role).toEqual(before);
  }

  describe('editing an item', () => {
    it('is the owner’s: the form shows the item, a save lands back at its row; refused (404) to everyone else, as a missing item', async () => {
      const { list, item } = await scenario();
      const page = await owner.browser.get(`${kind.base}/items/${item.id}/edit/`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('value="Fix the tap"');
      const saved = await owner.browser.post(`${kind.base}/items/${item.id}/edit/`, kind.itemEdit.form);
      expect([saved.statusCode, saved.headers.location]).toEqual([302, `${kind.base}/${list.id}/#item-${item.id}`]);
      expect(await rows().item(item.id)).toMatchObject(kind.itemEdit.stored);
      expect((await rows().done(item.id)).done).toBe(0);
      for (const role of NOT_OWNER) {
        await expectRefused(role, ({ itemId }) => caller(role).browser.get(`${kind.base}/items/${itemId}/edit/`));
        await expectRefused(role, ({ itemId }) => caller(role).browser.post(`${kind.base}/items/${itemId}/edit/`, { [kind.label]: 'Sneaky' }));
        // An invalid form is the same 404: the permission comes first.
        await expectRefused(role, ({ itemId }) => caller(role).browser.post(`${kind.base}/items/${itemId}/edit/`, { [kind.label]: '' }));
      }
      expect((await owner.browser.get(`${kind.base}/items/999999/edit/`)).statusCode).toBe(404);
    });

    it('refuses invalid input with 400, the message at its field and an error summary, and changes nothing', async () => {
      const { item } = await scenario();
      const before = await listTablesSnapshot(t.db);
      const empty = await owner.browser.post(`${kind.base}/items/${item.id}/edit/`, { [kind.label]: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.body).toContain('data-error-summary');
      expect(empty.body).toContain(`href="#id_${kind.label}"`);
      expect(empty.body).toContain(kind.labelRequired);
      const bad = await owner.browser.post(`${kind.base}/items/${item.id}/edit/`, { [kind.label]: 'x', ...kind.badItemField.form });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('data-error-summary');
      expect(bad.body).toContain(`href="#id_${kind.badItemField.field}"`);
      expect(await listTablesSnapshot(t.db)).toEqual(before);
    });
  });

  describe('a failed add', () => {
    it('shows the error summary on top of the list page (400), with the list’s URL to put back; a GET of the add path goes to the list', async () => {
      const { list } = await scenario();
      const before = await listTablesSnapshot(t.db);
      const failures: [Record<string, string>, string][] = [
        [kind.itemForm(''), kind.label],
        [{ ...kind.itemForm('Flour'), ...kind.badItemField.form }, kind.badItemField.field],
      ];
      for (const [form, field] of failures) {
        const response = await owner.browser.post(`${kind.base}/${list.id}/items/add/`, form);
        expect(response.statusCode, field).toBe(400);
        const summary = response.body.indexOf('data-error-summary');
        expect(summary, field).toBeGreaterThan(0);
        expect(summary, field).toBeLessThan(response.body.indexOf('<h1>'));
        expect(response.body, field).toContain(`href="#id_${field}"`);
        expect(response.body, field).toContain(`data-replace-url="${kind.base}/${list.id}/"`);
        expect(response.body, field).toContain('aria-invalid="true"');
      }
      expect(await listTablesSnapshot(t.db)).toEqual(before);
      const get = await owner.browser.get(`${kind.base}/${list.id}/items/add/`);
      expect([get.statusCode, get.headers.location]).toEqual([302, `${kind.base}/${list.id}/`]);
    });
  });

  describe('deleting an item', () => {
    it('asks first on GET (one POST form) for the owner; refused (404) to everyone else', async () => {
      const { list, item } = await scenario();
      const page = await owner.browser.get(`${kind.base}/items/${item.id}/delete/`);
      expect(page.statusCode).toBe(200);
      expect(page.body.match(/<form method="post"/g)?.length).toBe(2); // the page's and the header's logout
      expect(page.body).toContain(`action="${kind.base}/items/${item.id}/delete/"`);
      expect((await owner.browser.get(`${kind.base}/${list.id}/`)).body).toMatch(new RegExp(`<a href="${kind.base}/items/${item.id}/delete/"[^>]*data-confirm`));
      for (const role of NOT_OWNER) await expectRefused(role, ({ itemId }) => caller(role).browser.get(`${kind.base}/items/${itemId}/delete/`));
    });
  });
});

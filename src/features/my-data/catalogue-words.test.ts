import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, expectAllWrapped, loggedIn, makeZip, type TestApp, type TestBrowser, upload, useMarkedMessages } from '../../../test/index.js';
import { importSlots } from './routes.js';

// The my-data pages (import, delete the account) and their errors.

let t: TestApp;
let me: { user: User; browser: TestBrowser };
let content: string[];

beforeAll(async () => {
  useMarkedMessages();
  t = await buildTestApp();
  me = await loggedIn(t);
  content = [me.user.username, 'title', 'tags', 'notebook', 'created'];
});
afterAll(() => t.close());

describe('the my-data pages in the test language', () => {
  it('the import page and the delete-account page', async () => {
    for (const url of ['/accounts/import/', '/accounts/delete/']) {
      const response = await me.browser.get(url);
      expect(response.statusCode).toBe(200);
      expectAllWrapped(url, response.body, content);
    }
  });

  it('the import page with an error (not a zip), the flash message after an import, and both in Ukrainian', async () => {
    const refused = await upload(t.app, me.browser, '/accounts/import/', Buffer.from('not a zip at all'));
    expect(refused.statusCode).toBe(400);
    // The reader's own words for the damage (yauzl's) are the message's {detail}: inside the markers.
    expectAllWrapped('/accounts/import/ (not a zip)', refused.body, content);
    const done = await upload(t.app, me.browser, '/accounts/import/', await makeZip({ 'a.md': '# ⟦Hello⟧', 'b.md': '# ⟦Again⟧' }));
    expect(done.statusCode).toBe(302);
    const page = await me.browser.get('/accounts/import/');
    expect(page.body).toContain('⟦Import done: created 2 notes, 0 reminders, 0 notebooks, 0 tags, 0 to-do lists, 0 shopping lists.⟧');
    expectAllWrapped('/accounts/import/ (done)', page.body, content);

    const reader = await loggedIn(t);
    await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', reader.user.id).execute();
    const ukrainian = await upload(t.app, reader.browser, '/accounts/import/', Buffer.from('not a zip at all'));
    expect(ukrainian.body).toContain('⟦Нічого не імпортовано. ⟦Це не zip-файл, який ми можемо прочитати');
    await upload(t.app, reader.browser, '/accounts/import/', await makeZip({ 'a.md': '# Привіт', 'b.md': '# Ще', 'c.md': '# Три' }));
    expect((await reader.browser.get('/accounts/import/')).body).toContain('Створено: 3 нотатки, 0 нагадувань, 0 блокнотів, 0 тегів, 0 списків справ, 0 списків покупок.');
  });

  it('the import page refused while two imports run (503) and while the user’s own runs (409), and in Ukrainian', async () => {
    const zip = await makeZip({ 'a.md': '# A' });
    const own = importSlots.take(me.user.id);
    const other = importSlots.take(-1);
    try {
      const mine = await upload(t.app, me.browser, '/accounts/import/', zip);
      expect(mine.statusCode).toBe(409);
      expectAllWrapped('/accounts/import/ (own import running)', mine.body, content);
      const reader = await loggedIn(t);
      const busy = await upload(t.app, reader.browser, '/accounts/import/', zip);
      expect(busy.statusCode).toBe(503);
      expectAllWrapped('/accounts/import/ (imports running)', busy.body, [...content, reader.user.username]);
      await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', reader.user.id).execute();
      expect((await upload(t.app, reader.browser, '/accounts/import/', zip)).body).toContain('⟦Зараз виконуються інші імпорти. Спробуйте ще раз за хвилину.⟧');
    } finally {
      if (own.ok) own.release();
      if (other.ok) other.release();
    }
  });

  it('the delete-account page with its error', async () => {
    const wrong = await me.browser.post('/accounts/delete/', { password: '' });
    expect(wrong.statusCode).toBe(400);
    expectAllWrapped('/accounts/delete/ (no password)', wrong.body, content);
    const uk = await me.browser.post('/accounts/delete/', { password: 'wrong' }, { headers: { 'accept-language': 'uk' } });
    expect(uk.body).toContain('⟦Пароль введено неправильно. Введіть його ще раз.⟧');
  });
});

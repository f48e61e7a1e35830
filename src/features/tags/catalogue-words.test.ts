import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tag, User } from '../../db/schema.js';
import { buildTestApp, createTag, expectAllWrapped, loggedIn, type TestApp, type TestBrowser, useMarkedMessages } from '../../../test/index.js';

// The tags pages: every word a person reads comes from the catalogue.

let t: TestApp;
let me: { user: User; browser: TestBrowser };
let tag: Tag;
let content: string[];

beforeAll(async () => {
  useMarkedMessages();
  t = await buildTestApp();
  me = await loggedIn(t);
  content = [me.user.username];
});
afterAll(() => t.close());

describe('every tags page in the test language', () => {
  it('the empty list, then the list, the forms and the delete confirmation', async () => {
    const empty = await me.browser.get('/tags/');
    expectAllWrapped('/tags/ (empty)', empty.body, content);
    tag = await createTag(t.db, me.user, { name: '⟦soup⟧' });
    for (const url of ['/tags/', '/tags/new/', `/tags/${tag.id}/edit/`, `/tags/${tag.id}/delete/`]) {
      const response = await me.browser.get(url);
      expect(response.statusCode).toBe(200);
      expectAllWrapped(url, response.body, content);
    }
  });

  it('the form shown again with its errors, and the flash messages after a save and a delete', async () => {
    for (const name of ['', '⟦soup⟧', 'x'.repeat(51)]) {
      const invalid = await me.browser.post('/tags/new/', { name, color: '#123456' });
      expect(invalid.statusCode).toBe(400);
      expectAllWrapped(`/tags/new/ (${name})`, invalid.body, [...content, 'x'.repeat(51)]);
    }
    const saved = await me.browser.post(`/tags/${tag.id}/edit/`, { name: '⟦soup⟧', color: '#123456' });
    expect(saved.statusCode).toBe(302);
    const page = await me.browser.get('/tags/');
    expect(page.body).toContain('⟦Tag “⟦soup⟧” saved.⟧');
    expectAllWrapped('after a save', page.body, content);
    await me.browser.post(`/tags/${tag.id}/delete/`);
    expectAllWrapped('after a delete', (await me.browser.get('/tags/')).body, content);
  });

  it('in Ukrainian: the taken name', async () => {
    await createTag(t.db, me.user, { name: 'борщ' });
    const taken = await me.browser.post('/tags/new/', { name: 'борщ', color: '#123456' }, { headers: { 'accept-language': 'uk' } });
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('⟦У вас уже є тег із такою назвою.⟧');
    expect(taken.body).toContain('⟦Новий тег⟧');
  });
});

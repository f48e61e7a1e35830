import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, buildTestApp, createGroup, loggedIn, type TestApp, type TestBrowser } from '../../../../test/index.js';
import { chatTime } from './views.js';

// The navigation's Chat leads to /chat/ and is the current link there and on a group's chat page
// (Groups is not); there its count leaves out the group being read (the session counted before
// the page marked it read).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' });
});
afterAll(() => t.close());

async function post(browser: TestBrowser, groupId: number, content: string): Promise<void> {
  expect((await new ApiClient(t.app, { browser }).post(`/api/v1/groups/${groupId}/messages/`, { content })).statusCode).toBe(201);
}

const chatLink = (body: string) => /<a href="\/chat\/" class="nav-count-link"[^>]*>Chat(?:<span class="nav-count" aria-hidden="true">(\d+)<\/span>)?/.exec(body);

describe('Chat in the navigation on a chat page', () => {
  it('is current there (Groups is not) and counts only the other groups’ unread messages', async () => {
    const reader = await loggedIn(t);
    const writer = await loggedIn(t);
    const here = await createGroup(t.db, writer.user, [reader.user]);
    const elsewhere = await createGroup(t.db, writer.user, [reader.user]);
    for (const text of ['one', 'two', 'three']) await post(writer.browser, here.id, text);
    await post(writer.browser, elsewhere.id, 'hello');
    const notes = await reader.browser.get('/notes/');
    expect(chatLink(notes.body)?.[1]).toBe('4');
    const chat = await reader.browser.get(`/groups/${here.id}/chat/`);
    expect(chatLink(chat.body)?.[0]).toContain('aria-current="page"');
    expect(chatLink(chat.body)?.[1]).toBe('1');
    expect(chat.body).toContain('<a href="/groups/">Groups</a>');
    expect(chatLink((await reader.browser.get('/notes/')).body)?.[1]).toBe('1');
    // On the group's own page Groups is current, Chat is not.
    const group = await reader.browser.get(`/groups/${here.id}/`);
    expect(group.body).toContain('<a href="/groups/" aria-current="page">Groups</a>');
    expect(chatLink(group.body)?.[0]).not.toContain('aria-current');
  });

  it('is current on the list of chats, where Groups is not', async () => {
    const reader = await loggedIn(t);
    const writer = await loggedIn(t);
    await createGroup(t.db, writer.user, [reader.user]);
    await createGroup(t.db, reader.user);
    const list = await reader.browser.get('/chat/');
    expect(list.statusCode).toBe(200);
    expect(chatLink(list.body)?.[0]).toContain('aria-current="page"');
    expect(list.body).toContain('<a href="/groups/">Groups</a>');
    expect(chatLink((await reader.browser.get('/notes/')).body)?.[0]).not.toContain('aria-current');
  });
});

describe('Chat in the navigation, for its live count', () => {
  it('names its count for the page’s socket and carries its words for each plural form', async () => {
    const reader = await loggedIn(t);
    const writer = await loggedIn(t);
    const group = await createGroup(t.db, writer.user, [reader.user]);
    const link = (body: string) => /<a href="\/chat\/" class="nav-count-link"[^>]*>/.exec(body)![0];
    const empty = link((await reader.browser.get('/notes/')).body);
    expect(empty).toContain('data-count-href="/chat/"');
    expect(empty).toContain('data-label-one="{count} unread chat message"');
    expect(empty).toContain('data-label-other="{count} unread chat messages"');
    expect(empty).toContain('data-label-more="more than 99 unread chat messages"');
    await post(writer.browser, group.id, 'hello');
    const page = (await reader.browser.get('/notes/')).body;
    expect(link(page)).toBe(empty);
    expect(page).toContain('<span class="visually-hidden">, 1 unread chat message</span>');
    // In Ukrainian, one label for each of its forms.
    await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', reader.user.id).execute();
    const uk = link((await reader.browser.get('/notes/')).body);
    for (const form of ['one', 'few', 'many', 'more']) expect(uk).toMatch(new RegExp(`data-label-${form}="[^"]+"`));
  });
});

describe('chatTime, the chat’s one format', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  it('writes only the time for today, in the account’s zone', () => {
    expect(chatTime('UTC', '2026-11-25T09:05:00Z', 'en', now)).toBe('09:05');
    expect(chatTime('America/New_York', '2026-11-25T15:10:00Z', 'en', now)).toBe('10:10');
  });
  it('adds the day before today, and the year before this year', () => {
    expect(chatTime('UTC', '2026-11-24T22:10:00Z', 'en', now)).toBe('24 Nov, 22:10');
    expect(chatTime('Europe/Berlin', '2026-11-24T22:10:00Z', 'en', now)).toBe('24 Nov, 23:10');
    expect(chatTime('UTC', '2025-03-01T08:00:00Z', 'en', now)).toBe('1 Mar 2025, 08:00');
  });
  it('is written the Ukrainian way on a Ukrainian page', () => {
    expect(chatTime('Europe/Kyiv', '2026-11-25T07:05:00Z', 'uk', now)).toBe('09:05');
    expect(chatTime('Europe/Kyiv', '2026-11-24T12:10:00Z', 'uk', now)).toBe('24 лист., 14:10');
  });
});

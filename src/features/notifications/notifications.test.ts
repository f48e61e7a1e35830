import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createGroup, createNote, createShoppingList, createTodoList, createUser, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';
import { Notifications } from './notifications.js';
import { PAGE_SIZE } from './repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

// Written as a feature would, on the test's own connection; no hub: these tests read pages.
const notifications = new Notifications(null);

async function notify(user: User, text: string, createdAt = Date.now(), link = '/notes/') {
  await notifications.add(t.db, [user.id], { kind: 'test', text, link }, createdAt);
  return t.db.selectFrom('notifications').select('id').where('user_id', '=', user.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
}

const rowsOf = (user: User) => t.db.selectFrom('notifications').selectAll().where('user_id', '=', user.id).orderBy('id').execute();
const texts = (body: string) => [...body.matchAll(/<p class="notification-text">(?:<span class="badge[^"]*">New<\/span>)? ([^<]*)<\/p>/g)].map((m) => m[1]!);

/** The bell's accessible name and badge as a page shows them. */
function bell(body: string) {
  const label = /<span class="visually-hidden" data-bell-label="true">([^<]*)<\/span>/.exec(body)?.[1];
  const badge = /<span class="bell-count" aria-hidden="true"( hidden)?>([^<]*)<\/span>/.exec(body);
  return { label, badge: badge?.[2], hidden: badge?.[1] !== undefined };
}

async function unreadOnPage(browser: TestBrowser, path = '/notes/') {
  const response = await browser.get(path);
  expect(response.statusCode).toBe(200);
  return bell(response.body);
}

describe('the notifications page', () => {
  it('lists only the caller’s own notifications, newest first, unread ones marked, in their time zone', async () => {
    const { user, browser } = await loggedIn(t);
    await t.db.updateTable('users').set({ timezone: 'Asia/Tokyo' }).where('id', '=', user.id).execute();
    const other = await createUser(t.db);
    await notify(user, 'older one', Date.UTC(2026, 0, 1, 23, 30));
    await notify(other, 'not yours');
    const newer = await notify(user, 'newer <b>one</b>', Date.UTC(2026, 0, 2, 8, 0));
    await t.db.updateTable('notifications').set({ read_at: Date.now() }).where('id', '=', newer.id).execute();
    const response = await browser.get('/notifications/');
    expect(response.statusCode).toBe(200);
    expect(texts(response.body)).toEqual(['newer &lt;b>one&lt;/b>', 'older one']);
    expect(response.body).not.toContain('not yours');
    // 23:30 UTC on 1 January is 08:30 on 2 January in Tokyo.
    expect(response.body).toContain('2 Jan 2026, 08:30');
    expect(response.body).toMatch(/<li class="read">[\s\S]*newer/);
    expect(response.body).toMatch(/<li class="unread">[\s\S]*older one/);
    expect(response.body.match(/action="\/notifications\/\d+\/read\/"/g)).toHaveLength(1);
  });

  it('pages by PAGE_SIZE with ?page=, and 404s past the end and on a malformed page', async () => {
    const { user, browser } = await loggedIn(t);
    for (let i = 0; i < PAGE_SIZE + 2; i += 1) await notify(user, `n${i}`, 1_000 + i);
    const first = await browser.get('/notifications/');
    expect(texts(first.body)).toHaveLength(PAGE_SIZE);
    expect(texts(first.body)[0]).toBe(`n${PAGE_SIZE + 1}`);
    expect(first.body).toContain('href="/notifications/?page=2"');
    const second = await browser.get('/notifications/?page=2');
    expect(texts(second.body)).toEqual(['n1', 'n0']);
    expect((await browser.get('/notifications/?page=3')).statusCode).toBe(404);
    expect((await browser.get('/notifications/?page=abc')).statusCode).toBe(404);
  });

  it('sends an anonymous caller to log in', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/notifications/', headers: { host: 'localhost' } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/login/?next=%2Fnotifications%2F');
  });
});

describe('marking read', () => {
  it('marks one of the caller’s own read: 302 back, and the bell’s count drops', async () => {
    const { user, browser } = await loggedIn(t);
    const one = await notify(user, 'one');
    await notify(user, 'two');
    expect((await unreadOnPage(browser)).label).toBe('Notifications, 2 unread');
    const response = await browser.post(`/notifications/${one.id}/read/`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/notifications/');
    expect(await unreadOnPage(browser)).toEqual({ label: 'Notifications, 1 unread', badge: '1', hidden: false });
    // Again: still the caller's, nothing changes.
    expect((await browser.post(`/notifications/${one.id}/read/`)).statusCode).toBe(302);
    expect((await rowsOf(user)).map((row) => row.read_at !== null)).toEqual([true, false]);
  });

  it('goes back to the page the form was on', async () => {
    const { user, browser } = await loggedIn(t);
    const one = await notify(user, 'one');
    const response = await browser.post(`/notifications/${one.id}/read/`, { page: 2 });
    expect(response.headers.location).toBe('/notifications/?page=2');
    expect((await browser.post('/notifications/read/', { page: '//evil.example' })).headers.location).toBe('/notifications/');
  });

  it('answers 404 for another user’s notification, as for a missing one, and changes nothing', async () => {
    const { browser } = await loggedIn(t);
    const owner = await createUser(t.db);
    const theirs = await notify(owner, 'theirs');
    const hidden = await browser.post(`/notifications/${theirs.id}/read/`);
    const missing = await browser.post('/notifications/2147483000/read/');
    expect(hidden.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    const withoutToken = (body: string) => body.replace(/value="[^"]{64}"/g, '');
    expect(withoutToken(hidden.body)).toBe(withoutToken(missing.body));
    expect((await rowsOf(owner))[0]!.read_at).toBeNull();
    expect((await browser.post('/notifications/abc/read/')).statusCode).toBe(404);
  });

  it('marks all of the caller’s read and no one else’s', async () => {
    const { user, browser } = await loggedIn(t);
    const other = await createUser(t.db);
    await notify(user, 'one');
    await notify(user, 'two');
    await notify(other, 'theirs');
    const response = await browser.post('/notifications/read/');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/notifications/');
    expect((await rowsOf(user)).every((row) => row.read_at !== null)).toBe(true);
    expect((await rowsOf(other))[0]!.read_at).toBeNull();
    expect(await unreadOnPage(browser)).toEqual({ label: 'Notifications, none unread', badge: '0', hidden: true });
  });

  it('requires the CSRF token on both forms', async () => {
    const { user, browser } = await loggedIn(t);
    const one = await notify(user, 'one');
    expect((await browser.post(`/notifications/${one.id}/read/`, {}, { csrf: false })).statusCode).toBe(403);
    expect((await browser.post('/notifications/read/', {}, { csrf: false })).statusCode).toBe(403);
    expect((await rowsOf(user))[0]!.read_at).toBeNull();
  });
});

describe('the bell on every page', () => {
  it('shows the unread count with an accessible name, and "99+" from 100 on', async () => {
    const { user, browser } = await loggedIn(t);
    expect(await unreadOnPage(browser, '/groups/')).toEqual({ label: 'Notifications, none unread', badge: '0', hidden: true });
    await notify(user, 'one');
    expect(await unreadOnPage(browser, '/groups/')).toEqual({ label: 'Notifications, 1 unread', badge: '1', hidden: false });
    await t.db
      .insertInto('notifications')
      .values(Array.from({ length: 150 }, (_, i) => ({ user_id: user.id, kind: 'test', text: `bulk ${i}`, link: '', created_at: i, read_at: null })))
      .execute();
    expect(await unreadOnPage(browser, '/todo/')).toEqual({ label: 'Notifications, more than 99 unread', badge: '99+', hidden: false });
  });

  it('is never stale on a page kept in the page cache: the list and a note', async () => {
    const { user, browser } = await loggedIn(t);
    const note = await createNote(t.db, user, { title: 'kept' });
    for (const path of ['/notes/', `/notes/${note.id}/`]) {
      const before = (await unreadOnPage(browser, path)).badge;
      expect((await unreadOnPage(browser, path)).badge).toBe(before);
      await notify(user, `while ${path} was kept`);
      expect((await unreadOnPage(browser, path)).badge).toBe(String(Number(before) + 1));
    }
    await browser.post('/notifications/read/');
    expect((await unreadOnPage(browser, '/notes/')).badge).toBe('0');
    expect((await unreadOnPage(browser, `/notes/${note.id}/`)).badge).toBe('0');
  });
});

describe('notifications from other features', () => {
  async function groupOwner() {
    const owner = await loggedIn(t);
    const group = await createGroup(t.db, owner.user, [], `Family ${owner.user.id}`);
    return { ...owner, group };
  }

  it('adding someone to a group tells them once, linking to the group; re-adding tells nobody', async () => {
    const { user: alice, browser, group } = await groupOwner();
    const bob = await createUser(t.db);
    expect((await browser.post(`/groups/${group.id}/members/`, { action: 'add', username: bob.username })).statusCode).toBe(302);
    expect((await browser.post(`/groups/${group.id}/members/`, { action: 'add', username: bob.username })).statusCode).toBe(400);
    const rows = await rowsOf(bob);
    expect(rows).toEqual([
      expect.objectContaining({ kind: 'group.added', text: `${alice.username} added you to the group ${group.name}`, link: `/groups/${group.id}/`, read_at: null }),
    ]);
    expect(await rowsOf(alice)).toEqual([]);
  });

  it('a failed add (no such user) writes nothing', async () => {
    const { browser, group } = await groupOwner();
    const before = await t.db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect((await browser.post(`/groups/${group.id}/members/`, { action: 'add', username: 'nobody-here' })).statusCode).toBe(400);
    const after = await t.db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('sharing a to-do or shopping list tells the user once, linking to it; re-sharing and removing tell nobody', async () => {
    const { user: alice, browser } = await loggedIn(t);
    const bob = await createUser(t.db);
    const todo = await createTodoList(t.db, alice, { title: 'Weekend' });
    const shopping = await createShoppingList(t.db, alice, { title: 'Groceries' });
    for (const path of [`/todo/${todo.id}/share/`, `/shopping/${shopping.id}/share/`]) {
      expect((await browser.post(path, { action: 'add', username: bob.username })).statusCode).toBe(302);
      expect((await browser.post(path, { action: 'add', username: bob.username })).statusCode).toBe(302);
    }
    expect((await browser.post(`/todo/${todo.id}/share/`, { action: 'remove', username: bob.username })).statusCode).toBe(302);
    const rows = await rowsOf(bob);
    expect(rows.map((row) => [row.kind, row.text, row.link])).toEqual([
      ['list.shared', `${alice.username} shared the to-do list Weekend with you`, `/todo/${todo.id}/`],
      ['list.shared', `${alice.username} shared the shopping list Groceries with you`, `/shopping/${shopping.id}/`],
    ]);
  });

  it('a share refused (a list of someone else) writes nothing', async () => {
    const { browser } = await loggedIn(t);
    const owner = await createUser(t.db);
    const bob = await createUser(t.db);
    const theirs = await createTodoList(t.db, owner);
    expect((await browser.post(`/todo/${theirs.id}/share/`, { action: 'add', username: bob.username })).statusCode).toBe(404);
    expect(await rowsOf(bob)).toEqual([]);
  });
});

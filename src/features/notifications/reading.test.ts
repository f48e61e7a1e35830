import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createUser, loggedIn, type TestApp } from '../../../test/index.js';
import { Notifications } from './notifications.js';
import { sameSitePath } from './routes.js';

// Reading notifications from /notifications/: "Mark all as read" at the top, and each one's link
// through /notifications/<pk>/open/, which marks it read and goes where it points (this site only).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const notifications = new Notifications(null);

async function notify(user: User, text: string, link = '/notes/') {
  await notifications.add(t.db, [user.id], { kind: 'test', text, link });
  return t.db.selectFrom('notifications').select('id').where('user_id', '=', user.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
}

/** A row as an import might have left it, its link not checked on the way in. */
async function notifyRaw(user: User, link: string) {
  return t.db.insertInto('notifications').values({ user_id: user.id, kind: 'test', text: 'imported', message: '', link, created_at: Date.now(), read_at: null }).returning('id').executeTakeFirstOrThrow();
}

const readAt = async (id: number) => (await t.db.selectFrom('notifications').select('read_at').where('id', '=', id).executeTakeFirstOrThrow()).read_at;

describe('the notifications page', () => {
  it('has "Mark all as read" at the top while something is unread, and links each one through its own path', async () => {
    const { user, browser } = await loggedIn(t);
    const one = await notify(user, 'one', '/notes/');
    const page = await browser.get('/notifications/');
    expect(page.statusCode).toBe(200);
    const header = /<div class="page-header">([\s\S]*?)<\/div>/.exec(page.body)![1]!;
    expect(header).toContain('action="/notifications/read/"');
    expect(header).toContain('>Mark all as read</button>');
    expect(page.body).toContain(`<a href="/notifications/${one.id}/open/">Open<span class="visually-hidden">`);
    expect(page.body).not.toContain('<a href="/notes/">Open');

    expect((await browser.post('/notifications/read/')).statusCode).toBe(302);
    expect(await readAt(one.id)).not.toBeNull();
    expect((await browser.get('/notifications/')).body).not.toContain('Mark all as read');
  });

  it('marks all of the caller’s read at once, and no one else’s', async () => {
    const { user, browser } = await loggedIn(t);
    const other = await createUser(t.db);
    for (const text of ['a', 'b', 'c']) await notify(user, text);
    const theirs = await notify(other, 'theirs');
    expect((await browser.post('/notifications/read/')).headers.location).toBe('/notifications/');
    const unread = await t.db.selectFrom('notifications').select('user_id').where('read_at', 'is', null).where('user_id', 'in', [user.id, other.id]).execute();
    expect(unread).toEqual([{ user_id: other.id }]);
    expect(await readAt(theirs.id)).toBeNull();
  });
});

describe('following a notification', () => {
  it('marks it read and goes where it points; again, it still goes there', async () => {
    const { user, browser } = await loggedIn(t);
    const one = await notify(user, 'one', '/groups/7/chat/');
    const other = await notify(user, 'other');
    const response = await browser.get(`/notifications/${one.id}/open/`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/groups/7/chat/');
    expect(response.headers['cache-control']).toBe('no-store');
    const read = await readAt(one.id);
    expect(read).not.toBeNull();
    expect(await readAt(other.id)).toBeNull();
    expect((await browser.get(`/notifications/${one.id}/open/`)).headers.location).toBe('/groups/7/chat/');
    expect(await readAt(one.id)).toBe(read);
  });

  it('answers 404 for another user’s notification, as for a missing one, and changes nothing', async () => {
    const { browser } = await loggedIn(t);
    const other = await createUser(t.db);
    const theirs = await notify(other, 'not yours');
    expect((await browser.get(`/notifications/${theirs.id}/open/`)).statusCode).toBe(404);
    expect(await readAt(theirs.id)).toBeNull();
    expect((await browser.get('/notifications/999999999/open/')).statusCode).toBe(404);
    expect((await browser.get('/notifications/abc/open/')).statusCode).toBe(404);
  });

  it('sends an anonymous caller to log in', async () => {
    const { user } = await loggedIn(t);
    const one = await notify(user, 'one');
    const response = await t.app.inject({ method: 'GET', url: `/notifications/${one.id}/open/`, headers: { host: 'localhost' } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^\/accounts\/login\/\?next=/);
    expect(await readAt(one.id)).toBeNull();
  });

  it('never leaves the site: a link stored otherwise goes back to the list', async () => {
    const { user, browser } = await loggedIn(t);
    for (const link of ['//evil.example/', '/\\evil.example/', 'https://evil.example/', 'javascript:alert(1)', '/\t/evil.example/', '']) {
      const row = await notifyRaw(user, link);
      const response = await browser.get(`/notifications/${row.id}/open/`);
      expect(response.statusCode, link).toBe(302);
      expect(response.headers.location, link).toBe('/notifications/');
      expect(await readAt(row.id)).not.toBeNull();
    }
  });
});

describe('sameSitePath', () => {
  it('keeps a path of this site, percent-encoded', () => {
    expect(sameSitePath('/notes/12/')).toBe('/notes/12/');
    expect(sameSitePath('/tags/борщ/?q=1#top')).toBe('/tags/%D0%B1%D0%BE%D1%80%D1%89/?q=1#top');
  });
  it('refuses anything a browser would take to another site', () => {
    for (const link of ['//evil.example', '/\\evil.example', '\\\\evil.example', 'https://evil.example/', 'evil.example', 'javascript:alert(1)', '/\n/evil.example', '/\u0000x', '']) {
      expect(sameSitePath(link), JSON.stringify(link)).toBeNull();
    }
  });
});

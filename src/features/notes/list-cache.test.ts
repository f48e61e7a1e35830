import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { type TestApp, type TestBrowser, buildTestApp, createGroup, loggedIn } from '../../../test/helpers.js';
import { createNote } from '../../../test/notes-factories.js';

// The list page may be served from the page cache (platform/views/page-cache.ts). Each test
// first has the page shown (and so kept), then changes something and asks again: the list
// must never be older than the database, whoever changed it.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function titles(browser: TestBrowser, url = '/notes/'): Promise<string[]> {
  const response = await browser.get(url);
  expect(response.statusCode).toBe(200);
  return [...response.body.matchAll(/<h2 class="note-title"><a href="\/notes\/\d+\/">([^<]*)</g)].map((m) => m[1]!);
}

function csrfTokens(body: string): string[] {
  return [...body.matchAll(/name="csrfmiddlewaretoken" value="([^"]+)"/g)].map((m) => m[1]!);
}

describe('the notes list is never older than the database', () => {
  it('shows changes made on the app’s own connection right after the page was shown', async () => {
    const { user, browser } = await loggedIn(t);
    const first = await createNote(t.db, user, { title: 'first', updated_at: 1_000 });
    expect(await titles(browser)).toEqual(['first']);
    expect(await titles(browser)).toEqual(['first']);
    await createNote(t.db, user, { title: 'second', updated_at: 2_000 });
    expect(await titles(browser)).toEqual(['second', 'first']);
    // Pinning says nothing (no flash message that would bypass the cache): only the list tells.
    expect((await browser.post(`/notes/${first.id}/pin/`)).statusCode).toBe(302);
    expect(await titles(browser)).toEqual(['first', 'second']);
  });

  it('shows a change committed by another connection (another worker, instance or the CLI)', async () => {
    const { user, browser } = await loggedIn(t);
    await createNote(t.db, user, { title: 'mine', updated_at: 1_000 });
    expect(await titles(browser)).toEqual(['mine']);
    const other = openDatabase(t.config.databaseUrl);
    try {
      await createNote(other.db, user, { title: 'from elsewhere', updated_at: 2_000 });
    } finally {
      await other.close();
    }
    expect(await titles(browser)).toEqual(['from elsewhere', 'mine']);
  });

  it('stops showing a group note to a member the moment they leave the group', async () => {
    const { user: owner } = await loggedIn(t);
    const { user: member, browser } = await loggedIn(t);
    const group = await createGroup(t.db, owner, [member]);
    await createNote(t.db, owner, { title: 'group plan', group_id: group.id });
    expect(await titles(browser)).toEqual(['group plan']);
    await t.db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', member.id).execute();
    expect(await titles(browser)).toEqual([]);
  });

  it('keeps each user their own page: a member never gets the owner’s edit links', async () => {
    const { user: owner, browser: ownerBrowser } = await loggedIn(t);
    const { user: member, browser: memberBrowser } = await loggedIn(t);
    const group = await createGroup(t.db, owner, [member]);
    const note = await createNote(t.db, owner, { title: 'shared', group_id: group.id });
    expect((await ownerBrowser.get('/notes/')).body).toContain(`href="/notes/${note.id}/edit/"`);
    const seenByMember = (await memberBrowser.get('/notes/')).body;
    expect(seenByMember).toContain('shared');
    expect(seenByMember).not.toContain(`href="/notes/${note.id}/edit/"`);
    expect(seenByMember).toContain(member.username);
  });
});

describe('what a kept page carries besides the database', () => {
  it('has a fresh CSRF token in every response, and the server accepts it', async () => {
    const { user, browser } = await loggedIn(t);
    const note = await createNote(t.db, user, { title: 'pin me' });
    const first = csrfTokens((await browser.get('/notes/')).body);
    const second = csrfTokens((await browser.get('/notes/')).body);
    expect(new Set(first).size).toBe(1); // one masked token per page, in every form
    expect(second[0]).not.toBe(first[0]);
    const pinned = await browser.post(`/notes/${note.id}/pin/`, {}, { token: second[0]! });
    expect(pinned.statusCode).toBe(302);
    expect((await browser.get('/notes/')).body).toContain('badge-pinned');
  });

  it('shows a flash message once on a page that was kept before it arrived', async () => {
    const { user, browser } = await loggedIn(t);
    await createNote(t.db, user, { title: 'quiet' });
    expect((await browser.get('/notes/')).body).not.toContain('Hello from the test');
    browser.cookies.set('messages', t.app.signCookie(JSON.stringify([{ level: 'info', text: 'Hello from the test' }])));
    expect((await browser.get('/notes/')).body).toContain('Hello from the test');
    expect((await browser.get('/notes/')).body).not.toContain('Hello from the test');
  });

  it('answers a filter naming a notebook that is not the caller’s with 404, kept page or not', async () => {
    const { user, browser } = await loggedIn(t);
    await createNote(t.db, user, { title: 'a' });
    expect((await browser.get('/notes/')).statusCode).toBe(200);
    expect((await browser.get('/notes/?notebook=999999')).statusCode).toBe(404);
    expect((await browser.get('/notes/?notebook=999999')).statusCode).toBe(404);
  });
});

describe('with the page cache turned off (PAGE_CACHE_MB=0)', () => {
  /** Serves the list twice around a new note; returns how often the app read the change token. */
  async function listTwiceCountingTokenReads(env: Record<string, string>): Promise<{ reads: number; dialect: string }> {
    let reads = 0;
    const counted = await buildTestApp(env, (database) => {
      const { changeToken } = database;
      return { ...database, changeToken: changeToken && (() => (reads++, changeToken())) };
    });
    try {
      const { user, browser } = await loggedIn(counted);
      await createNote(counted.db, user, { title: 'one', updated_at: 1_000 });
      expect(await titles(browser)).toEqual(['one']);
      await createNote(counted.db, user, { title: 'two', updated_at: 2_000 });
      expect(await titles(browser)).toEqual(['two', 'one']);
      return { reads, dialect: counted.database.dialect };
    } finally {
      await counted.close();
    }
  }

  it('consults the change token when on (SQLite), never when off, and serves every list fresh', async () => {
    const on = await listTwiceCountingTokenReads({});
    expect(on.reads > 0).toBe(on.dialect === 'sqlite');
    const off = await listTwiceCountingTokenReads({ PAGE_CACHE_MB: '0' });
    expect(off.reads).toBe(0);
  });
});

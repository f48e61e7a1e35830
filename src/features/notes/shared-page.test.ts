import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import type { Note, User } from '../../db/schema.js';
import { buildTestApp, createGroup, createNote, createUser, loggedIn, QueryCounter, type TestApp, type TestBrowser } from '../../../test/index.js';

// A group note's readers (everyone who may see it but its owner) all get the same page but for
// the navigation and the "you" beside their name: it is kept once for all of them (render.ts's
// shared pages, for-viewer.tsx). Each test has the page kept by one reader, then asks as
// someone else.

const counter = new QueryCounter();
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, counter.observe);
});
afterAll(() => t.close());

interface Household {
  owner: { user: User; browser: TestBrowser };
  readers: { user: User; browser: TestBrowser }[];
  note: Note;
}

let households = 0;

async function household(readers = 2): Promise<Household> {
  const owner = await loggedIn(t);
  const members = [];
  // Names of different lengths: the navigation, which names the reader, moves the rest of the page.
  for (let i = 0; i < readers; i += 1) members.push(await loggedIn(t, { username: `reader${(households += 1)}${'x'.repeat(7 * i)}` }));
  const group = await createGroup(t.db, owner.user, members.map((member) => member.user));
  const note = await createNote(t.db, owner.user, { title: 'Soup for Friday', content: 'Carrots and leeks.', group_id: group.id });
  return { owner, readers: members, note };
}

/** The name the navigation's account link shows. */
function signedInAs(body: string): string | undefined {
  return /class="username"[^>]*>\s*<span class="visually-hidden">[^<]*<\/span>\s*([^<]+)<\/a>/.exec(body)?.[1]?.trim();
}

/** The names in the readers' panel that carry the "you" mark. */
function markedAsYou(body: string): string[] {
  return [...body.matchAll(/<span class="audience-name">([^<]+)(?:<span class="viewer-mark">)?<span class="badge">you<\/span>/g)].map((match) => match[1]!);
}

async function notePage(browser: TestBrowser, note: Note, status = 200): Promise<string> {
  const response = await browser.get(`/notes/${note.id}/`);
  expect(response.statusCode).toBe(status);
  return response.body;
}

describe('a group note’s page, kept once for its readers', () => {
  it('is served to a second reader from the page the first was shown, with their own name, navigation and "you"', async () => {
    const { owner, readers: [first, second], note } = await household();
    const firstBody = await notePage(first!.browser, note);
    expect(signedInAs(firstBody)).toBe(first!.user.username);
    expect(markedAsYou(firstBody)).toEqual([first!.user.username]);

    const from = counter.returned.length;
    let body = '';
    // One statement, the session's, with the note's token riding along (noteTokenColumn): the page
    // was not built again (no statement read the note's text).
    expect(await counter.during(async () => (body = await notePage(second!.browser, note)))).toBe(1);
    expect(counter.returned.slice(from).some((columns) => columns.includes('content'))).toBe(false);
    expect(body).toContain('Carrots and leeks.');
    expect(signedInAs(body)).toBe(second!.user.username);
    expect(markedAsYou(body)).toEqual([second!.user.username]);
    expect(body).toContain(`>${owner.user.username}<`);
    // No slot's marker reaches a page; every other reader's place holds a blank.
    expect(body).not.toMatch(/<!--[0-9a-f]{32}:/);

    // And back: the first reader's copy shows them, not the second.
    const again = await notePage(first!.browser, note);
    expect(signedInAs(again)).toBe(first!.user.username);
    expect(markedAsYou(again)).toEqual([first!.user.username]);
  });

  it('is never the owner’s: they get their actions and reminders though the readers’ page is kept', async () => {
    const { owner, readers: [reader], note } = await household(1);
    const readerBody = await notePage(reader!.browser, note);
    expect(readerBody).not.toContain(`/notes/${note.id}/edit/`);
    const body = await notePage(owner.browser, note);
    expect(body).toContain(`/notes/${note.id}/edit/`);
    expect(body).toContain(`/notes/${note.id}/reminders/`);
    expect(markedAsYou(body)).toEqual([owner.user.username]);
    // The owner's own page is kept apart: the reader still gets theirs.
    expect(await notePage(reader!.browser, note)).not.toContain(`/notes/${note.id}/edit/`);
  });

  it('is the same 404 as a missing note for someone outside the group, and for a reader who left it', async () => {
    const { readers: [leaving, staying], note } = await household();
    await notePage(leaving!.browser, note);
    const stranger = await loggedIn(t);
    await notePage(stranger.browser, note, 404);
    // Removed by another connection (another instance, the CLI): the kept page does not outlive it.
    const other = openDatabase(t.config.databaseUrl);
    try {
      await other.db.deleteFrom('group_members').where('user_id', '=', leaving!.user.id).execute();
    } finally {
      await other.close();
    }
    await notePage(leaving!.browser, note, 404);
    expect(markedAsYou(await notePage(staying!.browser, note))).toEqual([staying!.user.username]);
  });

  it('is kept per language: a reader who chose Ukrainian gets the Ukrainian page', async () => {
    const { readers: [english, ukrainian], note } = await household();
    await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', ukrainian!.user.id).execute();
    expect(await notePage(english!.browser, note)).toContain('<html lang="en"');
    expect(await notePage(ukrainian!.browser, note)).toContain('<html lang="uk"');
  });

  it('shows the owner’s edit to every reader at once', async () => {
    const { owner, readers: [first, second], note } = await household();
    await notePage(first!.browser, note);
    await notePage(second!.browser, note);
    const edit = await owner.browser.post(`/notes/${note.id}/edit/`, { title: 'Soup for Saturday', content: 'Carrots and leeks.', group: String(note.group_id), priority: '0' });
    expect(edit.statusCode).toBe(302);
    expect(await notePage(second!.browser, note)).toContain('Soup for Saturday');
    expect(await notePage(first!.browser, note)).toContain('Soup for Saturday');
  });

  it('keeps the "you" of a reader not yet shown it in the panel, whoever had it kept', async () => {
    const { readers: [first], note } = await household(1);
    await notePage(first!.browser, note);
    // A new member joins: the audience (and so the token) changes, and the page is built again.
    const late = await loggedIn(t);
    const groupId = (await t.db.selectFrom('notes').select('group_id').where('id', '=', note.id).executeTakeFirstOrThrow()).group_id!;
    await t.db.insertInto('group_members').values({ group_id: groupId, user_id: late.user.id, joined_at: Date.now() }).execute();
    expect(markedAsYou(await notePage(late.browser, note))).toEqual([late.user.username]);
    expect(markedAsYou(await notePage(first!.browser, note))).toEqual([first!.user.username]);
    const unrelated = await createUser(t.db);
    expect(markedAsYou(await notePage(first!.browser, note))).not.toContain(unrelated.username);
  });
});

describe('a group note’s page names its author once', () => {
  it('says "Written by" beside the dates, with no "By" badge repeating it; the notes list keeps the badge', async () => {
    const { owner, readers, note } = await household(1);
    const page = (await readers[0]!.browser.get(`/notes/${note.id}/`)).body;
    const start = page.indexOf('<article class="note"');
    expect(start).toBeGreaterThan(-1);
    const header = page.slice(start, page.indexOf('</header>', start));
    expect(header).toContain(`Written by ${owner.user.username}`);
    expect(header).not.toContain(`By ${owner.user.username}`);
    expect(header.split(owner.user.username)).toHaveLength(2);
    expect((await readers[0]!.browser.get('/notes/')).body).toContain(`<li class="badge badge-owner">By ${owner.user.username}</li>`);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, Note, User } from '../../db/schema.js';
import { buildTestApp, createGroup, createNote, loggedIn, type TestApp, TestBrowser } from '../../../test/index.js';
import { dateTimeIn } from '../../platform/time-zones.js';
import { formatWallTime, wallTimeAt } from '../../platform/wall-clock.js';
import { REMINDERS_PER_NOTE } from './reminders-forms.js';

// Reminders: the note's owner adds, sees and deletes them; everyone else, group
// members who can read the note included, gets the same 404 as for a missing note.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let member: { user: User; browser: TestBrowser };
let stranger: { user: User; browser: TestBrowser };
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  member = await loggedIn(t);
  stranger = await loggedIn(t);
  group = await createGroup(t.db, owner.user, [member.user]);
});
afterAll(() => t.close());

const HOUR = 60 * 60 * 1000;
/** A datetime-local value `ms` from now in `zone`, as a browser there would send it. */
const localIn = (zone: string, fromNow: number) => formatWallTime({ ...wallTimeAt(zone, Date.now() + fromNow), second: 0 });
const groupNote = (overrides: Partial<Note> = {}) => createNote(t.db, owner.user, { group_id: group.id, ...overrides });
const remindersOf = (noteId: number) => t.db.selectFrom('reminders').selectAll().where('note_id', '=', noteId).orderBy('id').execute();
const add = (browser: TestBrowser, noteId: number, form: Record<string, string>) => browser.post(`/notes/${noteId}/reminders/add/`, form);

describe('the owner', () => {
  it('adds a reminder (302 to the note), sees it listed, and deletes it; the kept page never shows a stale list', async () => {
    const note = await groupNote();
    const before = await owner.browser.get(`/notes/${note.id}/`);
    expect(before.body).toContain('No reminders on this note.');
    expect(before.body).toContain(`action="/notes/${note.id}/reminders/add/"`);

    const remindAt = localIn('UTC', 2 * HOUR);
    const added = await add(owner.browser, note.id, { remind_at: remindAt, message: 'Buy <milk>', repeat: 'weekly' });
    expect(added.statusCode).toBe(302);
    expect(added.headers.location).toBe(`/notes/${note.id}/`);
    const [stored] = await remindersOf(note.id);
    expect(stored).toMatchObject({ owner_id: owner.user.id, local_time: remindAt, time_zone: 'UTC', repeat: 'weekly', message: 'Buy <milk>', next_due_at: Date.parse(`${remindAt}:00Z`) });

    // Twice: the first shows the flash and is not kept, the second may come from the page cache.
    for (let visit = 0; visit < 2; visit += 1) {
      const page = await owner.browser.get(`/notes/${note.id}/`);
      expect(page.body).toContain(`${dateTimeIn('UTC', Date.parse(`${remindAt}:00Z`), 'en')} (UTC)`);
      expect(page.body).toContain('Every week');
      expect(page.body).toContain('Buy &lt;milk>');
      expect(page.body).not.toContain('<milk>');
      expect(page.body).toContain(`action="/reminders/${stored!.id}/delete/"`);
    }

    const confirm = await owner.browser.get(`/reminders/${stored!.id}/delete/`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(`action="/reminders/${stored!.id}/delete/"`);
    expect(await remindersOf(note.id)).toHaveLength(1);

    const deleted = await owner.browser.post(`/reminders/${stored!.id}/delete/`);
    expect(deleted.statusCode).toBe(302);
    expect(deleted.headers.location).toBe(`/notes/${note.id}/`);
    expect(await remindersOf(note.id)).toEqual([]);
    for (let visit = 0; visit < 2; visit += 1) {
      const page = await owner.browser.get(`/notes/${note.id}/`);
      expect(page.body).toContain('No reminders on this note.');
      expect(page.body).not.toContain('Buy &lt;milk>');
    }
  });

  it('enters the time in their own time zone: 09:00 in Kyiv is 07:00 UTC in winter and 06:00 UTC in summer', async () => {
    const kyiv = await loggedIn(t);
    await t.db.updateTable('users').set({ timezone: 'Europe/Kyiv' }).where('id', '=', kyiv.user.id).execute();
    const note = await createNote(t.db, kyiv.user);
    const year = new Date().getUTCFullYear() + 1;
    expect((await add(kyiv.browser, note.id, { remind_at: `${year}-01-15T09:00`, repeat: 'none' })).statusCode).toBe(302);
    expect((await add(kyiv.browser, note.id, { remind_at: `${year}-07-15T09:00:00`, repeat: 'none' })).statusCode).toBe(302);
    const [winter, summer] = await remindersOf(note.id);
    expect(winter).toMatchObject({ time_zone: 'Europe/Kyiv', local_time: `${year}-01-15T09:00`, next_due_at: Date.parse(`${year}-01-15T07:00:00Z`) });
    expect(summer).toMatchObject({ local_time: `${year}-07-15T09:00`, next_due_at: Date.parse(`${year}-07-15T06:00:00Z`) });
    const page = await kyiv.browser.get(`/notes/${note.id}/`);
    expect(page.body).toContain(`15 Jan ${year}, 09:00 (Europe/Kyiv)`);
    // Marked with its zone, so the page's script does not rewrite it in the browser's zone.
    expect(page.body).toMatch(new RegExp(`<time datetime="${year}-01-15T07:00:00.000Z" data-zone="Europe/Kyiv">`));
  });

  it('is shown the form again with a message, status 400 and nothing stored, for each invalid input', async () => {
    const kyiv = await loggedIn(t);
    await t.db.updateTable('users').set({ timezone: 'Europe/Kyiv' }).where('id', '=', kyiv.user.id).execute();
    const note = await createNote(t.db, kyiv.user, { title: 'Shopping' });
    const soon = localIn('Europe/Kyiv', HOUR);
    const year = new Date().getUTCFullYear() + 1;
    // The last Sunday of March: Kyiv's clocks go from 03:00 to 04:00.
    const lastSunday = 31 - new Date(Date.UTC(year, 2, 31)).getUTCDay();
    const cases: [Record<string, string>, string][] = [
      [{ repeat: 'none' }, 'Enter a date and time.'],
      [{ remind_at: '', repeat: 'none' }, 'Enter a date and time.'],
      [{ remind_at: 'tomorrow', repeat: 'none' }, 'Enter a valid date and time.'],
      [{ remind_at: `${year}-02-30T10:00`, repeat: 'none' }, 'Enter a valid date and time.'],
      [{ remind_at: localIn('Europe/Kyiv', -2 * 60_000), repeat: 'none' }, 'That time has passed in Europe/Kyiv.'],
      [{ remind_at: `${year}-03-${lastSunday}T03:30`, repeat: 'daily' }, 'does not exist in Europe/Kyiv'],
      [{ remind_at: soon, repeat: 'hourly' }, 'Choose once, every day, every week or every month.'],
      [{ remind_at: soon, repeat: 'none', message: 'x'.repeat(501) }, 'Messages have at most 500 characters.'],
    ];
    for (const [form, message] of cases) {
      const response = await add(kyiv.browser, note.id, form);
      expect(response.statusCode, JSON.stringify(form)).toBe(400);
      expect(response.body).toContain(message);
      expect(response.body).toContain('<h1>Shopping</h1>');
      if (form.remind_at) expect(response.body).toContain(`value="${form.remind_at}"`);
    }
    expect(await remindersOf(note.id)).toEqual([]);
    // The current minute is still allowed: it fires straight away.
    expect((await add(kyiv.browser, note.id, { remind_at: localIn('Europe/Kyiv', 0), repeat: 'none' })).statusCode).toBe(302);
  });

  it(`may keep at most ${REMINDERS_PER_NOTE} reminders on a note`, async () => {
    const note = await createNote(t.db, owner.user);
    const remindAt = localIn('UTC', HOUR);
    for (let n = 0; n < REMINDERS_PER_NOTE; n += 1) expect((await add(owner.browser, note.id, { remind_at: remindAt, repeat: 'none' })).statusCode).toBe(302);
    const over = await add(owner.browser, note.id, { remind_at: remindAt, repeat: 'none' });
    expect(over.statusCode).toBe(400);
    expect(over.body).toContain(`A note has at most ${REMINDERS_PER_NOTE} reminders`);
    expect(await remindersOf(note.id)).toHaveLength(REMINDERS_PER_NOTE);
  });

  it('deleting the note deletes its reminders', async () => {
    const note = await createNote(t.db, owner.user);
    await add(owner.browser, note.id, { remind_at: localIn('UTC', HOUR), repeat: 'daily' });
    expect(await remindersOf(note.id)).toHaveLength(1);
    expect((await owner.browser.post(`/notes/${note.id}/delete/`)).statusCode).toBe(302);
    expect(await remindersOf(note.id)).toEqual([]);
  });
});

describe('everyone but the owner', () => {
  const anonymous = () => new TestBrowser(t.app);

  it('sees no reminders nor the form on a group note they can read', async () => {
    const note = await groupNote();
    await add(owner.browser, note.id, { remind_at: localIn('UTC', HOUR), message: 'owner only', repeat: 'none' });
    for (let visit = 0; visit < 2; visit += 1) {
      const page = await member.browser.get(`/notes/${note.id}/`);
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain('owner only');
      expect(page.body).not.toContain('Reminders');
      expect(page.body).not.toContain('/reminders/');
    }
  });

  it('gets 404 adding a reminder (member, stranger, missing note), a login redirect when anonymous, and nothing is stored', async () => {
    const note = await groupNote();
    const form = { remind_at: localIn('UTC', HOUR), repeat: 'none' };
    expect((await add(member.browser, note.id, form)).statusCode).toBe(404);
    expect((await add(member.browser, note.id, { remind_at: 'bad' })).statusCode).toBe(404);
    expect((await add(stranger.browser, note.id, form)).statusCode).toBe(404);
    expect((await add(owner.browser, 2_000_000_000, form)).statusCode).toBe(404);
    const anon = await add(anonymous(), note.id, form);
    expect(anon.statusCode).toBe(302);
    expect(anon.headers.location).toMatch(/^\/accounts\/login\//);
    expect(await remindersOf(note.id)).toEqual([]);
  });

  it("gets 404 for someone else's reminder on the delete page and the delete, a login redirect when anonymous, and it stays", async () => {
    const note = await groupNote();
    await add(owner.browser, note.id, { remind_at: localIn('UTC', HOUR), repeat: 'none' });
    const [reminder] = await remindersOf(note.id);
    for (const browser of [member.browser, stranger.browser]) {
      expect((await browser.get(`/reminders/${reminder!.id}/delete/`)).statusCode).toBe(404);
      expect((await browser.post(`/reminders/${reminder!.id}/delete/`)).statusCode).toBe(404);
    }
    expect((await owner.browser.post('/reminders/2000000000/delete/')).statusCode).toBe(404);
    const anonGet = await anonymous().get(`/reminders/${reminder!.id}/delete/`);
    expect(anonGet.statusCode).toBe(302);
    expect(anonGet.headers.location).toBe(`/accounts/login/?next=${encodeURIComponent(`/reminders/${reminder!.id}/delete/`)}`);
    const anonPost = await anonymous().post(`/reminders/${reminder!.id}/delete/`);
    expect(anonPost.statusCode).toBe(302);
    expect(anonPost.headers.location).toMatch(/^\/accounts\/login\//);
    expect(await remindersOf(note.id)).toHaveLength(1);
  });
});

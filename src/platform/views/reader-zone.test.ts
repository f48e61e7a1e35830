import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createGroup, createNote, createReminder, createToken, DEFAULT_PASSWORD, loggedIn, type TestApp, TestBrowser } from '../../../test/index.js';

// Every time on a signed-in reader's pages is in their account's zone, written by the server and
// marked (data-zone) so that public/js/app.js leaves it there rather than moving it to the
// browser's zone; <body data-time-zone> gives that zone to the times scripts write (chat.js).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** 04:21 UTC: 06:21 in Kyiv (UTC+2 in January), 23:21 the day before in New York. */
const AT = Date.UTC(2026, 0, 15, 4, 21);
const ISO = new Date(AT).toISOString();
const inZone = (zone: string) => `<time datetime="${ISO}" data-zone="${zone}" title="${zone}">`;
const KYIV = `${inZone('Europe/Kyiv')}15 Jan 2026, 06:21</time>`;

async function readerIn(zone: string, admin = false): Promise<{ user: User; browser: TestBrowser }> {
  const user = await loggedIn(t);
  await t.db.updateTable('users').set({ timezone: zone, is_admin: admin ? 1 : 0 }).where('id', '=', user.user.id).execute();
  return user;
}

describe('a reader with a time zone', () => {
  it('sees a note’s times in Kyiv time on the note page and in the list, marked for the script to keep', async () => {
    const { user, browser } = await readerIn('Europe/Kyiv');
    const note = await createNote(t.db, user, { created_at: AT, updated_at: AT });
    // Twice: the second page may come from the page cache.
    for (let visit = 0; visit < 2; visit += 1) {
      const page = (await browser.get(`/notes/${note.id}/`)).body;
      expect(page.split(KYIV)).toHaveLength(3);
      expect(page).toContain('<body data-locale="en-GB" data-time-zone="Europe/Kyiv">');
      expect((await browser.get('/notes/')).body).toContain(KYIV);
    }
    // Nobody signed in: no zone, the script shows times in the browser's.
    expect((await new TestBrowser(t.app).get('/accounts/login/')).body).toContain('<body data-locale="en-GB">');
  });

  it('sees a shared note page in their own zone, though other readers of the kept page are elsewhere', async () => {
    const owner = await readerIn('UTC');
    const kyiv = await readerIn('Europe/Kyiv');
    const newYork = await readerIn('America/New_York');
    const group = await createGroup(t.db, owner.user, [kyiv.user, newYork.user]);
    const note = await createNote(t.db, owner.user, { group_id: group.id, created_at: AT, updated_at: AT });
    for (let visit = 0; visit < 2; visit += 1) {
      expect((await kyiv.browser.get(`/notes/${note.id}/`)).body).toContain(KYIV);
      expect((await newYork.browser.get(`/notes/${note.id}/`)).body).toContain(`${inZone('America/New_York')}14 Jan 2026, 23:21</time>`);
    }
  });

  it('sees the kept notes list in a zone just chosen on the account page', async () => {
    const { user, browser } = await readerIn('UTC');
    await createNote(t.db, user, { created_at: AT, updated_at: AT });
    for (let visit = 0; visit < 2; visit += 1) expect((await browser.get('/notes/')).body).toContain(`${inZone('UTC')}15 Jan 2026, 04:21</time>`);
    expect((await browser.post('/accounts/', { email: '', timezone: 'Europe/Kyiv', password: DEFAULT_PASSWORD })).statusCode).toBe(302);
    // Twice: the first page after the change shows its flash message and is not the kept one.
    for (let visit = 0; visit < 2; visit += 1) expect((await browser.get('/notes/')).body).toContain(KYIV);
  });

  it('sees a reminder entered in another zone at the time it falls in theirs', async () => {
    const { user, browser } = await readerIn('Europe/Kyiv');
    const note = await createNote(t.db, user);
    // 09:00 in New York, entered before the account moved to Kyiv: 16:00 there.
    await createReminder(t.db, note, { local_time: '2030-01-01T09:00', time_zone: 'America/New_York', next_due_at: Date.UTC(2030, 0, 1, 14) });
    const page = (await browser.get(`/notes/${note.id}/`)).body;
    expect(page).toContain('<time datetime="2030-01-01T14:00:00.000Z" data-zone="Europe/Kyiv">1 Jan 2030, 16:00 (Europe/Kyiv)</time>');
  });

  it('sees tokens, the administration’s users and audit, and chat in their zone', async () => {
    const { user, browser } = await readerIn('Europe/Kyiv', true);
    await createToken(t.db, user, 'read', 'laptop');
    await t.db.updateTable('access_tokens').set({ created_at: AT, last_used_at: AT }).where('user_id', '=', user.id).execute();
    expect((await browser.get('/accounts/tokens/')).body.split(KYIV)).toHaveLength(3);

    await t.db.updateTable('users').set({ last_login: AT }).where('id', '=', user.id).execute();
    expect((await browser.get('/admin/users/')).body).toContain(KYIV);
    await t.db.insertInto('audit_log').values({ at: AT, actor_id: user.id, actor_name: user.username, action: 'deactivate', target_id: null, target_name: 'someone', address: '127.0.0.1' }).execute();
    expect((await browser.get('/admin/audit/')).body).toContain(KYIV);

    const group = await createGroup(t.db, user);
    await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: user.id, content: 'Dinner at six?', created_at: AT }).execute();
    const chat = (await browser.get(`/groups/${group.id}/chat/`)).body;
    expect(chat).toContain('data-time-zone="Europe/Kyiv"');
    expect(chat).toMatch(/<time datetime="2026-01-15T04:21:00.000Z" data-zone="Europe\/Kyiv" title="15 Jan 2026, 06:21">[^<]*06:21<\/time>/);
  });
});

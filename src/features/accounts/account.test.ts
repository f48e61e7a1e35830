import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTodoItem, buildTestApp, createTodoList, DEFAULT_PASSWORD, loggedIn, type TestApp, TestBrowser } from '../../../test/index.js';
import { todayIn } from '../../platform/time-zones.js';

// The account page (email, time zone) and the time zone's use: the reader's "today".

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const stored = (id: number) => t.db.selectFrom('users').select(['email', 'timezone']).where('id', '=', id).executeTakeFirstOrThrow();

describe('the account page', () => {
  it('shows the caller’s email and time zone, and saves new ones', async () => {
    const { user, browser } = await loggedIn(t, { email: 'ann@example.com' });
    const page = (await browser.get('/accounts/')).body;
    expect(page).toContain('value="ann@example.com"');
    expect(page).toContain('<option value="UTC" selected>');
    const saved = await browser.post('/accounts/', { email: 'ann@example.org', timezone: 'Europe/Kyiv', password: DEFAULT_PASSWORD });
    expect(saved.statusCode).toBe(302);
    expect(saved.headers.location).toBe('/accounts/');
    expect(await stored(user.id)).toEqual({ email: 'ann@example.org', timezone: 'Europe/Kyiv' });
    expect((await browser.get('/accounts/')).body).toContain('<option value="Europe/Kyiv" selected>');
  });

  it('shows the form again with messages for an unknown time zone or a bad address, changing nothing', async () => {
    const { user, browser } = await loggedIn(t, { email: 'bob@example.com' });
    for (const form of [{ email: 'bob@example.com', timezone: 'Mars/Olympus' }, { email: 'not an address', timezone: 'UTC' }, { email: 'bob@example.com' }]) {
      const response = await browser.post('/accounts/', form);
      expect(response.statusCode).toBe(400);
      expect(response.body).toMatch(/Select a valid time zone\.|Enter a valid email address\.|Select your time zone\./);
    }
    expect(await stored(user.id)).toEqual({ email: 'bob@example.com', timezone: 'UTC' });
  });

  it('is for signed-in users only, and changes only the caller', async () => {
    const anonymous = new TestBrowser(t.app);
    expect((await anonymous.get('/accounts/')).headers.location).toMatch(/^\/accounts\/login\//);
    const { user: other } = await loggedIn(t, { email: 'other@example.com' });
    const { browser } = await loggedIn(t);
    expect((await browser.post('/accounts/', { email: 'mine@example.com', timezone: 'Asia/Tokyo', id: other.id, password: DEFAULT_PASSWORD })).statusCode).toBe(302);
    expect(await stored(other.id)).toEqual({ email: 'other@example.com', timezone: 'UTC' });
  });
});

describe('time zones', () => {
  it('registration keeps the time zone the browser guessed, and UTC for one this server does not know', async () => {
    for (const [guess, kept] of [['America/Sao_Paulo', 'America/Sao_Paulo'], ['Europe/Kyiv', 'Europe/Kyiv'], ['Nowhere/Special', 'UTC'], ['<script>', 'UTC'], ['', 'UTC']] as const) {
      const browser = new TestBrowser(t.app);
      const username = `tz${Math.random().toString(36).slice(2, 10)}`;
      const response = await browser.post('/register/', { username, password1: 'a long passphrase 7', password2: 'a long passphrase 7', timezone: guess });
      expect(response.statusCode).toBe(302);
      const row = await t.db.selectFrom('users').select('timezone').where('username', '=', username).executeTakeFirstOrThrow();
      expect(row.timezone).toBe(kept);
    }
    expect((await new TestBrowser(t.app).get('/register/')).body).toMatch(/<input type="hidden" name="timezone" value data-guess-time-zone="true"\/>/);
  });

  it('marks an item overdue by its reader’s today: due yesterday in Kiritimati is not overdue in Pago Pago', async () => {
    const ahead = await loggedIn(t);
    const behind = await loggedIn(t);
    await t.db.updateTable('users').set({ timezone: 'Pacific/Kiritimati' }).where('id', '=', ahead.user.id).execute();
    await t.db.updateTable('users').set({ timezone: 'Pacific/Pago_Pago' }).where('id', '=', behind.user.id).execute();
    const list = await createTodoList(t.db, ahead.user);
    await t.db.insertInto('todo_list_shares').values({ list_id: list.id, user_id: behind.user.id }).execute();
    // Pago Pago's today is at least a day behind Kiritimati's (UTC-11 and UTC+14).
    await addTodoItem(t.db, list, { text: 'Water the plants', due_date: todayIn('Pacific/Pago_Pago'), position: 0 });
    expect((await ahead.browser.get(`/todo/${list.id}/`)).body).toContain('Overdue');
    expect((await behind.browser.get(`/todo/${list.id}/`)).body).not.toContain('Overdue');
  });
});

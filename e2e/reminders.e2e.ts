import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

// A reminder on a note: added through the note page's form, it fires while that page is open and
// the bell counts it over the socket, without a reload; the notification links back to the note.

/** `YYYY-MM-DDTHH:MM:SS` (the form's wall-clock format) for `ms` in `timeZone`. */
function wallTime(ms: number, timeZone: string): string {
  // Swedish writes dates the ISO way: "2026-11-25 16:01:30".
  return new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
    .format(ms)
    .replace(' ', 'T');
}

describe('reminders in the browser', () => {
  let browser: Browser;
  let rita: Person;
  let noteUrl = '';
  let timeZone = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    rita = await Person.open(browser, 'rita');
  });
  afterAll(async () => {
    await browser?.close();
  });

  const bell = () => rita.page.getByRole('link', { name: /^Notifications,/ });

  test('a reminder added on the note page fires while the page stays open: the bell counts it live', async () => {
    await register(rita, 'rita');
    await rita.visit('/notes/new/');
    await fill(rita, { Title: 'Dentist', Text: 'Bring the insurance card.' });
    expect(await submit(rita, 'Save')).toBe(302);
    noteUrl = path(rita);
    expect(noteUrl).toMatch(/^\/notes\/\d+\/$/);
    await rita.audit();
    await expect.poll(() => rita.page.getByText('No reminders on this note.').isVisible()).toBe(true);
    // Registration took the browser's zone; the form reads the time in it.
    timeZone = (await rita.page.locator('#id_remind_at_help').textContent())!.replace(/^Your time zone: (.+)\.$/, '$1');
    expect(timeZone).toBe('Europe/Berlin');

    // A few seconds ahead (the form takes seconds, as datetime-local values may have them): the
    // page the form leads to is open, its socket connected, before the reminder falls due.
    await fill(rita, { 'Remind me at': wallTime(Date.now() + 8_000, timeZone), 'Message (optional)': 'Call to confirm the time' });
    expect(await submit(rita, 'Add reminder')).toBe(302);
    expect(path(rita)).toBe(noteUrl);
    await expect.poll(() => rita.page.getByText('Reminder added.').isVisible()).toBe(true);
    const listed = rita.page.locator('.reminder-list li');
    expect(await listed.count()).toBe(1);
    expect(await listed.textContent()).toContain('Once · Call to confirm the time');
    expect(await bell().textContent()).toContain('Notifications, none unread');
    await rita.audit();

    // No reload: the scheduler wakes at the reminder's time and the socket brings the count.
    const loads: string[] = [];
    rita.page.on('load', () => loads.push(rita.page.url()));
    await expect.poll(() => bell().textContent(), { timeout: 20_000 }).toContain('Notifications, 1 unread');
    expect(await rita.page.locator('.bell-count').textContent()).toBe('1');
    expect(loads).toEqual([]);
    expect(path(rita)).toBe(noteUrl);
    rita.page.removeAllListeners('load');

    await rita.visit('/notifications/');
    const notification = rita.page.locator('.notification-list li.unread');
    expect(await notification.count()).toBe(1);
    expect(await notification.locator('.notification-text').textContent()).toContain('Reminder: Dentist — Call to confirm the time');
    // The link marks the notification read on its way to the note.
    expect(await notification.getByRole('link', { name: /^Open/ }).getAttribute('href')).toMatch(/^\/notifications\/\d+\/open\/$/);
    // Delivered once, a reminder that does not repeat is gone from the note.
    await notification.getByRole('link', { name: /^Open/ }).click();
    await rita.page.waitForURL((url) => url.pathname === noteUrl);
    await rita.audit();
    expect(path(rita)).toBe(noteUrl);
    expect(await rita.page.locator('.reminder-list li').count()).toBe(0);
  });

  test('the note page lists the reminders to come; a time gone by is refused with the form kept', async () => {
    const tomorrow = wallTime(Date.now() + 86_400_000, timeZone).slice(0, 10);
    await fill(rita, { 'Remind me at': `${tomorrow}T09:00`, 'Message (optional)': 'Leave at 8:30' });
    await rita.page.getByLabel('Repeat').selectOption({ label: 'Every week' });
    expect(await submit(rita, 'Add reminder')).toBe(302);
    await fill(rita, { 'Remind me at': `${tomorrow}T18:30` });
    expect(await submit(rita, 'Add reminder')).toBe(302);
    await rita.audit();
    const listed = rita.page.locator('.reminder-list li');
    expect(await listed.count()).toBe(2);
    // In the zone the reminder fires in, as the server wrote it in the page's language (English
    // as en-GB: "27 Nov 2026, 09:00"): the page's script leaves it be.
    const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${tomorrow}T12:00:00Z`));
    expect(await listed.nth(0).textContent()).toContain(`${day}, 09:00 (${timeZone}) · Every week · Leave at 8:30`);
    expect(await listed.nth(1).textContent()).toContain(`${day}, 18:30 (${timeZone}) · Once`);
    await rita.screenshot('note-reminders');

    const yesterday = wallTime(Date.now() - 86_400_000, timeZone).slice(0, 10);
    await fill(rita, { 'Remind me at': `${yesterday}T09:00`, 'Message (optional)': 'Too late' });
    expect(await submit(rita, 'Add reminder')).toBe(400);
    await rita.audit(true);
    const field = rita.page.getByLabel('Remind me at', { exact: true });
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await rita.page.locator('#id_remind_at_errors').textContent()).toContain(`That time has passed in ${timeZone}.`);
    expect(await field.inputValue()).toBe(`${yesterday}T09:00`);
    expect(await rita.page.getByLabel('Message (optional)', { exact: true }).inputValue()).toBe('Too late');
    expect(await rita.page.locator('.reminder-list li').count()).toBe(2);
    await rita.screenshot('note-reminder-error');
  });

  test('a reminder is deleted through its confirmation page', async () => {
    await rita.visit(noteUrl);
    const action = await rita.page.locator('.reminder-list li').nth(1).locator('form').getAttribute('action');
    expect(action).toMatch(/^\/reminders\/\d+\/delete\/$/);
    await rita.visit(action!);
    expect(await rita.page.getByRole('heading', { level: 1 }).textContent()).toBe('Delete this reminder?');
    expect(await rita.page.locator('article strong').textContent()).toContain('Dentist: ');
    await rita.screenshot('reminder-delete');
    expect(await submit(rita, 'Delete')).toBe(302);
    await rita.audit();
    expect(path(rita)).toBe(noteUrl);
    await expect.poll(() => rita.page.getByText('Reminder deleted.').isVisible()).toBe(true);
    const listed = rita.page.locator('.reminder-list li');
    expect(await listed.count()).toBe(1);
    expect(await listed.textContent()).toContain('Leave at 8:30');
  });
});

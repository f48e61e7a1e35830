import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

// The bell in the header: its count moves while a page is open, without a reload.

describe('notifications in the browser', () => {
  let browser: Browser;
  let nora: Person;
  let ned: Person;

  beforeAll(async () => {
    browser = await launchBrowser();
    nora = await Person.open(browser, 'nora');
    ned = await Person.open(browser, 'ned');
  });
  afterAll(async () => {
    await browser?.close();
  });

  const bell = (person: Person) => person.page.getByRole('link', { name: /^Notifications,/ });

  test('ned’s open page hears that nora added him to a group, and the page lists it', async () => {
    await register(nora, 'nora');
    await register(ned, 'ned');
    expect(await bell(ned).getAttribute('href')).toBe('/notifications/');
    await expect.poll(() => bell(ned).textContent()).toContain('Notifications, none unread');

    await nora.visit('/groups/new/');
    await fill(nora, { Name: 'Rowing club' });
    expect(await submit(nora, 'Create group')).toBe(302);
    await fill(nora, { Username: 'ned' });
    expect(await submit(nora, 'Add member')).toBe(302);

    // No reload: the socket brought the count.
    await expect.poll(() => bell(ned).textContent(), { timeout: 5_000 }).toContain('Notifications, 1 unread');
    expect(await ned.page.locator('.bell-count').isVisible()).toBe(true);
    expect(await ned.page.locator('.bell-count').textContent()).toBe('1');
    await ned.audit();
    await ned.screenshot('bell');

    await ned.visit('/notifications/');
    expect(await ned.page.locator('.notification-list li.unread').textContent()).toContain('nora added you to the group Rowing club');
    await ned.screenshot('notifications');
    await ned.screenshot('notifications', { dark: true });
  });

  test('marking it read empties the bell', async () => {
    await ned.visit('/notifications/');
    const markRead = ned.page.getByRole('button', { name: /^Mark read/ });
    expect(await markRead.textContent()).toBe('Mark read: nora added you to the group Rowing club');
    const [response] = await Promise.all([ned.page.waitForResponse((r) => r.request().method() === 'POST'), markRead.click()]);
    expect(response.status()).toBe(302);
    await ned.page.waitForLoadState('load');
    expect(path(ned)).toBe('/notifications/');
    await ned.audit();
    await expect.poll(() => bell(ned).textContent()).toContain('Notifications, none unread');
    expect(await ned.page.locator('.bell-count').isVisible()).toBe(false);
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

// The bell in the header, and Chat's count beside it: they move while a page is open, without a
// reload, and agree: reading the chat reads its mentions.

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

  const bellOf = (page: Page) => page.getByRole('link', { name: /^Notifications,/ });
  const chatOf = (page: Page) => page.getByRole('link', { name: /^Chat\b/ });
  const chatCount = async (page: Page) => ((await page.locator('.nav-count').count()) === 0 ? '' : await page.locator('.nav-count').textContent());

  test('a mention raises the bell and Chat on ned’s open notes page and his other tab; opening the chat drops both on each', async () => {
    await ned.visit('/notes/');
    const otherTab = await ned.context.newPage();
    await otherTab.goto('/notes/');
    expect(await chatCount(ned.page)).toBe('');

    // Nora's only group: Chat leads straight to its chat.
    await nora.visit('/chat/');
    expect(path(nora)).toMatch(/^\/groups\/\d+\/chat\/$/);
    await nora.page.locator('#chat-status[data-state="online"]').waitFor();
    await nora.page.locator('#chat-input').fill('@ned the boat is booked for Saturday');
    await nora.page.locator('#chat-input').press('Enter');
    await nora.page.locator('.chat-message.own', { hasText: 'the boat is booked' }).waitFor();

    // No reload: the page's one socket brought both counts.
    for (const page of [ned.page, otherTab]) {
      await expect.poll(() => bellOf(page).textContent(), { timeout: 5_000 }).toContain('Notifications, 1 unread');
      await expect.poll(() => chatCount(page), { timeout: 5_000 }).toBe('1');
      // Named as the server names it (the badge is hidden from screen readers, its words are not).
      expect(await page.getByRole('link', { name: /^Chat ?, 1 unread chat message$/ }).count()).toBe(1);
    }
    await ned.audit();
    await ned.screenshot('chat-count-live');

    // Ned's only group too: Chat opens its chat, which reads the message and its mention.
    await Promise.all([ned.page.waitForURL(/\/groups\/\d+\/chat\/$/), chatOf(ned.page).click()]);
    await ned.audit();
    await ned.page.locator('.chat-message', { hasText: 'the boat is booked' }).waitFor();
    expect(await bellOf(ned.page).textContent()).toContain('Notifications, none unread');
    expect(await chatCount(ned.page)).toBe('');
    // His other tab hears it, again without a reload.
    await expect.poll(() => bellOf(otherTab).textContent(), { timeout: 5_000 }).toContain('Notifications, none unread');
    await expect.poll(() => chatCount(otherTab), { timeout: 5_000 }).toBe('');
    expect(await otherTab.getByRole('link', { name: 'Chat', exact: true }).count()).toBe(1);

    // A message arriving while his chat is open in sight is read as it comes: the other tab stays at none.
    await nora.page.locator('#chat-input').fill('@ned and bring the oars');
    await nora.page.locator('#chat-input').press('Enter');
    await ned.page.locator('.chat-message', { hasText: 'bring the oars' }).waitFor();
    await expect.poll(() => ned.page.evaluate(() => fetch('/notifications/').then((response) => response.text()))).not.toContain('badge-group">New<');
    expect(await chatCount(otherTab)).toBe('');
    expect(await bellOf(otherTab).textContent()).toContain('Notifications, none unread');
    await otherTab.close();
  });

  test('the notifications page marks all read from its top, and following one reads it', async () => {
    for (const name of ['Choir', 'Book club']) {
      await nora.visit('/groups/new/');
      await fill(nora, { Name: name });
      expect(await submit(nora, 'Create group')).toBe(302);
      await fill(nora, { Username: 'ned' });
      expect(await submit(nora, 'Add member')).toBe(302);
    }
    await ned.visit('/notifications/');
    expect(await ned.page.locator('.notification-list li.unread').count()).toBe(2);
    const markAll = ned.page.getByRole('button', { name: 'Mark all as read', exact: true });
    expect(await markAll.isVisible()).toBe(true);
    // At the top: above the list.
    expect((await markAll.boundingBox())!.y).toBeLessThan((await ned.page.locator('.notification-list').boundingBox())!.y);

    // Following one goes where it points and reads it, the other stays unread.
    await Promise.all([ned.page.waitForURL(/\/groups\/\d+\/$/), ned.page.getByRole('link', { name: /^Open ?: nora added you to the group Choir$/ }).click()]);
    await ned.audit();
    expect(await ned.page.getByRole('heading', { level: 1 }).textContent()).toContain('Choir');
    await expect.poll(() => bellOf(ned.page).textContent()).toContain('Notifications, 1 unread');
    await ned.visit('/notifications/');
    expect(await ned.page.locator('.notification-list li.unread').textContent()).toContain('nora added you to the group Book club');

    expect(await submit(ned, 'Mark all as read')).toBe(302);
    expect(path(ned)).toBe('/notifications/');
    await ned.audit();
    expect(await ned.page.locator('.notification-list li.unread').count()).toBe(0);
    expect(await ned.page.getByRole('button', { name: 'Mark all as read', exact: true }).count()).toBe(0);
    await expect.poll(() => bellOf(ned.page).textContent()).toContain('Notifications, none unread');
  });
});

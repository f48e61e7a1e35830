import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit } from './actions.js';
import { launchBrowser, Person, SCREENSHOT_DIR } from './browser.js';

// The chat on a phone's touch screen and on a desktop: what Enter does there (and the hint saying
// so), no focus taken on load, the history given most of a phone's height; the group's members
// suggested after `@` and their mentions marked in messages; the navigation's Chat going to the
// only group's chat, else to the list of chats.

const box = (person: Person) => person.page.getByLabel('Message', { exact: true });
const online = (person: Person) => person.page.locator('#chat-status[data-state="online"]').waitFor();
const focusedId = (page: Page) => page.evaluate(() => (document.activeElement === document.body ? 'body' : document.activeElement?.id ?? null));

describe('the chat on a phone and a desktop, with mentions', () => {
  let browser: Browser;
  /** At a desktop, the group's owner. */
  let petro: Person;
  /** On a phone. */
  let sofiia: Person;
  let chat: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    petro = await Person.open(browser, 'petro');
    sofiia = await Person.open(browser, 'sofiia', { phone: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('petro makes a group with sofiia, solomiia and taras; Chat in his navigation opens its chat', async () => {
    await register(sofiia, 'sofiia');
    for (const name of ['solomiia', 'taras']) {
      const other = await Person.open(browser, name);
      await register(other, name);
      await other.close();
    }
    await register(petro, 'petro');
    await petro.visit('/groups/new/');
    await fill(petro, { Name: 'Allotment' });
    expect(await submit(petro, 'Create group')).toBe(302);
    chat = `${path(petro)}chat/`;
    for (const name of ['sofiia', 'solomiia', 'taras']) {
      await fill(petro, { Username: name });
      expect(await submit(petro, 'Add member')).toBe(302);
    }
    // His only group: the navigation's Chat goes straight to its chat, and is the current link.
    await petro.page.getByRole('link', { name: 'Chat', exact: true }).click();
    await petro.page.waitForURL(`**${chat}`);
    expect(await petro.page.getByRole('link', { name: 'Chat', exact: true }).getAttribute('aria-current')).toBe('page');
    await online(petro);
    for (let n = 1; n <= 12; n += 1) {
      await box(petro).fill(`Row ${n} is weeded`);
      await box(petro).press('Enter');
      await petro.page.locator('.chat-message.own', { hasText: `Row ${n} is weeded` }).waitFor();
    }
  });

  test('on a phone nothing takes the focus on load and the history takes most of the screen', async () => {
    await sofiia.visit(chat);
    await online(sofiia);
    expect(await focusedId(sofiia.page)).toBe('body');
    const layout = await sofiia.page.evaluate(() => ({
      history: document.getElementById('chat-scroll')!.getBoundingClientRect().height,
      boxBottom: document.getElementById('chat-send')!.getBoundingClientRect().bottom,
      height: window.innerHeight,
      scrollY: window.scrollY,
    }));
    expect(layout.history / layout.height).toBeGreaterThanOrEqual(0.6);
    expect(layout.boxBottom).toBeLessThanOrEqual(layout.height);
    expect(layout.scrollY).toBe(0);
  });

  test('on a phone Enter starts a new line, the Send button sends, and the hint says so', async () => {
    expect(await sofiia.page.locator('.chat-help-touch').isVisible()).toBe(true);
    expect(await sofiia.page.locator('.chat-help-keyboard').isVisible()).toBe(false);
    await box(sofiia).tap();
    await sofiia.page.keyboard.type('Line one');
    await sofiia.page.keyboard.press('Enter');
    await sofiia.page.keyboard.type('line two');
    expect(await box(sofiia).inputValue()).toBe('Line one\nline two');
    await sofiia.page.getByRole('button', { name: 'Send', exact: true }).tap();
    const sent = sofiia.page.locator('.chat-message.own .chat-content', { hasText: 'Line one' });
    await sent.waitFor();
    expect(await sent.textContent()).toBe('Line one\nline two');
    expect(await box(sofiia).inputValue()).toBe('');
  });

  test('on a desktop nothing takes the focus on load, Enter sends and the box keeps the focus', async () => {
    await petro.visit(chat);
    await online(petro);
    expect(await focusedId(petro.page)).toBe('body');
    expect(await petro.page.locator('.chat-help-keyboard').isVisible()).toBe(true);
    expect(await petro.page.locator('.chat-help-touch').isVisible()).toBe(false);
    await box(petro).fill('Compost delivered');
    await box(petro).press('Enter');
    await petro.page.locator('.chat-message.own', { hasText: 'Compost delivered' }).waitFor();
    expect(await box(petro).inputValue()).toBe('');
    expect(await focusedId(petro.page)).toBe('chat-input');
    // Sent with the button, the box has the focus back too.
    await box(petro).fill('And the mulch');
    await petro.page.getByRole('button', { name: 'Send', exact: true }).click();
    await petro.page.locator('.chat-message.own', { hasText: 'And the mulch' }).waitFor();
    expect(await focusedId(petro.page)).toBe('chat-input');
  });

  test('typing @so suggests the members it starts, arrows move, Enter picks; the mention is marked live', async () => {
    const list = petro.page.getByRole('listbox', { name: 'Members to mention' });
    await box(petro).fill('');
    await box(petro).pressSequentially('Seeds for @so');
    await list.waitFor();
    expect(await list.getByRole('option').allTextContents()).toEqual(['@sofiia', '@solomiia']);
    const active = () => box(petro).getAttribute('aria-activedescendant');
    const selected = () => list.locator('[aria-selected="true"]').textContent();
    expect(await petro.page.locator(`#${await active()}`).textContent()).toBe('@sofiia');
    // The pointer away from the Send button it last clicked: axe would measure its hover colours.
    await petro.page.mouse.move(0, 0);
    await petro.audit();
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await petro.page.screenshot({ path: `${SCREENSHOT_DIR}chat-suggestions-1280.png` });
    await box(petro).press('ArrowDown');
    expect(await selected()).toBe('@solomiia');
    await box(petro).press('ArrowUp');
    expect(await selected()).toBe('@sofiia');
    expect(await petro.page.locator(`#${await active()}`).textContent()).toBe('@sofiia');
    await box(petro).press('Enter');
    expect(await box(petro).inputValue()).toBe('Seeds for @sofiia ');
    expect(await list.isVisible()).toBe(false);
    expect(await active()).toBeNull();
    // Escape closes the list; what was typed stays.
    await box(petro).pressSequentially('and @ta');
    expect(await list.getByRole('option').allTextContents()).toEqual(['@taras']);
    await box(petro).press('Escape');
    expect(await list.isVisible()).toBe(false);
    await box(petro).pressSequentially('ras, by Friday');
    await box(petro).press('Enter');

    const mine = petro.page.locator('.chat-message.own', { hasText: 'Seeds for' });
    await mine.waitFor();
    expect(await mine.locator('mark.mention').allTextContents()).toEqual(['@sofiia', '@taras']);
    expect(await mine.locator('mark.mention-you').count()).toBe(0);
    const hers = sofiia.page.locator('.chat-message', { hasText: 'Seeds for' });
    await hers.waitFor();
    expect(await hers.locator('mark.mention-you').allTextContents()).toEqual(['@sofiia']);
    expect(await hers.locator('mark.mention').allTextContents()).toEqual(['@sofiia', '@taras']);
    expect(await hers.locator('.chat-content').textContent()).toBe('Seeds for @sofiia and @taras, by Friday');
  });

  test('on a phone a tap picks a suggestion, and the marks are there after a reload', async () => {
    await box(sofiia).tap();
    await sofiia.page.keyboard.type('Thanks @pe');
    const option = sofiia.page.getByRole('option', { name: '@petro' });
    await option.waitFor();
    await sofiia.page.screenshot({ path: `${SCREENSHOT_DIR}chat-suggestions-390.png` });
    await option.tap();
    expect(await box(sofiia).inputValue()).toBe('Thanks @petro ');
    expect(await focusedId(sofiia.page)).toBe('chat-input');
    await box(sofiia).fill('');

    await sofiia.visit(chat);
    await online(sofiia);
    const hers = sofiia.page.locator('.chat-message', { hasText: 'Seeds for' });
    expect(await hers.locator('mark.mention-you').allTextContents()).toEqual(['@sofiia']);
    await petro.visit(chat);
    await online(petro);
    // The desktop's whole page at 1280 px; the phone's screen as it shows, 390 by 844 (a whole-page
    // shot would resize the phone's screen, which Chromium then takes for a desktop's).
    for (const scheme of ['light', 'dark'] as const) {
      const suffix = scheme === 'dark' ? '-dark' : '';
      for (const [person, width] of [[petro, 1280], [sofiia, 390]] as const) {
        await person.page.emulateMedia({ colorScheme: scheme });
        await person.page.screenshot({ path: `${SCREENSHOT_DIR}chat-mentions${suffix}-${width}.png`, fullPage: person === petro });
        await person.page.emulateMedia({ colorScheme: 'light' });
      }
    }
    expect(await sofiia.page.locator('.chat-help-touch').isVisible()).toBe(true);
  });

  test('with a second group, Chat lists the chats, the latest first, with what is unread', async () => {
    await petro.visit('/groups/new/');
    await fill(petro, { Name: 'Greenhouse' });
    expect(await submit(petro, 'Create group')).toBe(302);
    await box(sofiia).fill('Tomatoes are in');
    await sofiia.page.getByRole('button', { name: 'Send', exact: true }).tap();
    await sofiia.page.locator('.chat-message.own', { hasText: 'Tomatoes are in' }).waitFor();
    await petro.visit('/notes/');
    await petro.page.getByRole('link', { name: /^Chat\b/ }).click();
    await petro.page.waitForURL('**/chat/');
    await petro.audit();
    expect(await petro.page.getByRole('link', { name: /^Chat\b/ }).getAttribute('aria-current')).toBe('page');
    expect(await petro.page.locator('.chat-list-name').allTextContents()).toEqual(['Allotment', 'Greenhouse']);
    expect(await petro.page.locator('.unread-count').allTextContents()).toEqual(['1 new message']);
    await petro.screenshot('chat-list');
    await petro.screenshot('chat-list', { dark: true });
  });
});

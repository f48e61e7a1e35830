import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

// A link in the chat to a note of the group becomes a card for a member who may read the note,
// and stays a plain (safe) link for one who may not; unread messages show in the navigation.

function idIn(pathname: string, prefix: string): number {
  const match = new RegExp(`^${prefix}(\\d+)/$`).exec(pathname);
  expect(match, `${pathname} is a ${prefix}<pk>/ page`).not.toBeNull();
  return Number(match![1]);
}

describe('chat links become cards for those who may see them', () => {
  let browser: Browser;
  let cara: Person;
  let dev: Person;
  let groupId: number;
  let groupNote: number;
  let privateNote: number;

  beforeAll(async () => {
    browser = await launchBrowser();
    cara = await Person.open(browser, 'cara');
    dev = await Person.open(browser, 'dev');
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function newNote(title: string, group?: string): Promise<number> {
    await cara.visit('/notes/new/');
    await fill(cara, { Title: title, Text: `About ${title}.` });
    if (group) await cara.page.getByLabel('Share with group').selectOption({ label: group });
    expect(await submit(cara, 'Save')).toBe(302);
    return idIn(new URL(cara.page.url()).pathname, '/notes/');
  }

  test('cara makes a group with dev, a note shared with it and a note of her own', async () => {
    await register(cara, 'cara');
    await register(dev, 'dev');
    await cara.visit('/groups/new/');
    await fill(cara, { Name: 'Smith family' });
    expect(await submit(cara, 'Create group')).toBe(302);
    groupId = idIn(new URL(cara.page.url()).pathname, '/groups/');
    await fill(cara, { Username: 'dev' });
    expect(await submit(cara, 'Add member')).toBe(302);
    groupNote = await newNote('Camping checklist', 'Smith family');
    privateNote = await newNote('Surprise party');
  });

  test('a message linking to both shows dev one card and a plain link, and cara two cards', async () => {
    const chat = `/groups/${groupId}/chat/`;
    await cara.visit(chat);
    await dev.visit(chat);
    for (const person of [cara, dev]) await person.page.locator('#chat-status[data-state="online"]').waitFor();
    const origin = new URL(cara.page.url()).origin;
    const box = cara.page.getByLabel('Message', { exact: true });
    await box.fill(`Packing: /notes/${groupNote}/ and shh ${origin}/notes/${privateNote}/. Map: https://example.com/map?x=1`);
    await box.press('Enter');

    const message = dev.page.locator('.chat-message', { hasText: 'Packing:' });
    const card = message.locator('.chat-card');
    await card.first().waitFor();
    expect(await card.count()).toBe(1);
    expect(await card.getAttribute('href')).toBe(`/notes/${groupNote}/`);
    expect(await card.locator('.chat-card-kind').textContent()).toBe('Note');
    expect(await card.locator('.chat-card-title').textContent()).toBe('Camping checklist');
    // The hidden note stays a plain link, its title never sent; every link is safe.
    const links = message.locator('.chat-content a');
    expect(await links.evaluateAll((anchors) => anchors.map((a) => [a.getAttribute('href'), a.getAttribute('rel')]))).toEqual([
      [`/notes/${groupNote}/`, 'noopener noreferrer nofollow'],
      [`/notes/${privateNote}/`, 'noopener noreferrer nofollow'],
      ['https://example.com/map?x=1', 'noopener noreferrer nofollow'],
    ]);
    expect(await message.textContent()).not.toContain('Surprise party');
    await dev.audit();

    const own = cara.page.locator('.chat-message.own', { hasText: 'Packing:' }).locator('.chat-card');
    await expect.poll(() => own.count()).toBe(2);
    expect(await own.locator('.chat-card-title').allTextContents()).toEqual(['Camping checklist', 'Surprise party']);
    await cara.audit();
  });

  test('other schemes stay text', async () => {
    const box = cara.page.getByLabel('Message', { exact: true });
    await box.fill('try javascript:alert(1) or data:text/html,<b>x</b>');
    await box.press('Enter');
    const message = dev.page.locator('.chat-message', { hasText: 'javascript:alert(1)' });
    await message.waitFor();
    expect(await message.locator('a').count()).toBe(0);
    expect(await message.locator('b').count()).toBe(0);
  });

  test('after a reload the history shows the same cards, and the chat looks right at both widths and schemes', async () => {
    await dev.visit(`/groups/${groupId}/chat/`);
    const card = dev.page.locator('.chat-message', { hasText: 'Packing:' }).locator('.chat-card');
    await card.waitFor();
    expect(await card.locator('.chat-card-title').textContent()).toBe('Camping checklist');
    await dev.audit();
    await dev.screenshot('chat-links');
    await dev.screenshot('chat-links', { dark: true });
  });

  test('a message dev has not seen shows in his navigation and on /groups/ until he opens the chat', async () => {
    await dev.visit('/notes/');
    const box = cara.page.getByLabel('Message', { exact: true });
    await box.fill('Leaving at 8.');
    await box.press('Enter');
    await cara.page.locator('.chat-message.own', { hasText: 'Leaving at 8.' }).waitFor();
    // Dev's chat socket closed when he left the page: the message is not read.
    await expect.poll(async () => {
      await dev.visit('/notes/');
      return dev.page.locator('.nav-count-link').textContent();
    }).toBe('Chat1, 1 unread chat message');
    // The badge is hidden from screen readers, which hear the words instead.
    expect(await dev.page.getByRole('link', { name: /^Chat\W+1 unread chat message$/ }).getAttribute('href')).toBe('/chat/');
    await dev.visit('/groups/');
    expect(await dev.page.locator('.unread-count').textContent()).toBe('1 new message');
    await dev.screenshot('groups-unread');
    await dev.visit(`/groups/${groupId}/chat/`);
    await dev.page.locator('#chat-status[data-state="online"]').waitFor();
    await expect.poll(async () => {
      await dev.visit('/groups/');
      return dev.page.locator('.unread-count').count();
    }).toBe(0);
  });

  test('under her live message cara is told that only she sees the private note’s title; dev gets a plain link and no hint', async () => {
    const chat = `/groups/${groupId}/chat/`;
    await cara.visit(chat);
    await dev.visit(chat);
    for (const person of [cara, dev]) await person.page.locator('#chat-status[data-state="online"]').waitFor();
    const box = cara.page.getByLabel('Message', { exact: true });
    await box.fill(`Hush: /notes/${privateNote}/ and /notes/${groupNote}/`);
    await box.press('Enter');

    const own = cara.page.locator('.chat-message.own', { hasText: 'Hush:' });
    const hint = own.locator('.chat-card-hint');
    await hint.waitFor();
    expect(await own.locator('.chat-card').count()).toBe(2);
    // One hint, right under the private note's card and tied to it; none under the group's note.
    expect(await hint.count()).toBe(1);
    expect(await hint.textContent()).toBe('Only you can see this title: the others see a plain link.');
    const privateCard = own.locator(`.chat-card[href="/notes/${privateNote}/"]`);
    expect(await privateCard.evaluate((card) => card.nextElementSibling?.className)).toBe('chat-card-hint');
    expect(await privateCard.getAttribute('aria-describedby')).toBe(await hint.getAttribute('id'));
    expect(await own.locator(`.chat-card[href="/notes/${groupNote}/"]`).getAttribute('aria-describedby')).toBeNull();
    await cara.audit();
    await cara.screenshot('chat-card-hint');
    await cara.screenshot('chat-card-hint', { dark: true });

    const theirs = dev.page.locator('.chat-message', { hasText: 'Hush:' });
    await theirs.locator('.chat-card').waitFor();
    expect(await theirs.locator('.chat-card').count()).toBe(1);
    expect(await theirs.locator(`.chat-content a[href="/notes/${privateNote}/"]`).count()).toBe(1);
    expect(await theirs.locator('.chat-card-hint').count()).toBe(0);
    expect(await theirs.textContent()).not.toContain('Surprise party');
  });
});

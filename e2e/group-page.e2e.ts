import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit } from './actions.js';
import { launchBrowser, PHONE, Person } from './browser.js';

// The group page and its chat in the browser: the group page lists what is shared with it, the
// note's Group badge leads there, the owner renames the group, leaving asks first, and on a phone
// the chat's box is in view (not focused: a phone's keyboard would cover the history), every
// message's time written the same way.

function idIn(pathname: string, prefix: string): number {
  const match = new RegExp(`^${prefix}(\\d+)/$`).exec(pathname);
  expect(match, `${pathname} is a ${prefix}<pk>/ page`).not.toBeNull();
  return Number(match![1]);
}

/** A time as the chat writes it today, in any locale: "22:10" or "10:10 PM", no date, no zone. */
const TODAY_TIME = /^\d{1,2}[:.]\d{2}(\s?[AaPp]\.?[Mm]\.?)?$/;

describe('the group page and its chat', () => {
  let browser: Browser;
  let ann: Person;
  let ben: Person;
  let groupId: number;
  let noteId: number;

  beforeAll(async () => {
    browser = await launchBrowser();
    ann = await Person.open(browser, 'gf_ann');
    ben = await Person.open(browser, 'gf_ben');
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('ann shares a note and a shopping list with her group, and keeps a note to herself', async () => {
    await register(ann, 'gf_ann');
    await register(ben, 'gf_ben');
    await ann.visit('/groups/new/');
    await fill(ann, { Name: 'Hill family' });
    expect(await submit(ann, 'Create group')).toBe(302);
    groupId = idIn(new URL(ann.page.url()).pathname, '/groups/');
    await fill(ann, { Username: 'gf_ben' });
    expect(await submit(ann, 'Add member')).toBe(302);

    await ann.visit('/notes/new/');
    await fill(ann, { Title: 'Picnic plan', Text: 'Saturday at the lake.' });
    await ann.page.getByLabel('Share with group').selectOption({ label: 'Hill family' });
    expect(await submit(ann, 'Save')).toBe(302);
    noteId = idIn(new URL(ann.page.url()).pathname, '/notes/');
    await ann.visit('/notes/new/');
    await fill(ann, { Title: 'Private diary', Text: 'Mine alone.' });
    expect(await submit(ann, 'Save')).toBe(302);
    await ann.visit('/shopping/new/');
    await fill(ann, { Title: 'Picnic shop' });
    await ann.page.getByLabel('Group (optional)').selectOption({ label: 'Hill family' });
    expect(await submit(ann, 'Create list')).toBe(302);
  });

  test('a member sees exactly them on the group page', async () => {
    await ben.visit(`/groups/${groupId}/`);
    const notes = ben.page.getByRole('region', { name: 'Notes' });
    expect(await notes.getByRole('link').allTextContents()).toEqual(['Picnic plan']);
    const lists = ben.page.getByRole('region', { name: 'Shopping lists' });
    expect(await lists.getByRole('link').allTextContents()).toEqual(['Picnic shop']);
    expect(await ben.page.locator('main').textContent()).not.toContain('Private diary');
    await ben.screenshot('group-shared');
    await ben.screenshot('group-shared', { dark: true });
  });

  test('the Group badge of a note leads to the group page', async () => {
    await ben.visit(`/notes/${noteId}/`);
    await ben.page.locator('.badge-group').getByRole('link', { name: 'Hill family' }).click();
    await ben.page.waitForURL(`**/groups/${groupId}/`);
    await ben.audit();
  });

  test('the owner renames the group; a taken or empty name is refused with a message', async () => {
    await ann.visit(`/groups/${groupId}/`);
    await ann.page.getByRole('link', { name: 'Rename the group' }).click();
    await ann.page.waitForURL(`**/groups/${groupId}/edit/`);
    await ann.audit();
    expect(await ann.page.evaluate(() => document.activeElement?.id)).toBe('id_name');
    await ann.screenshot('group-rename');
    await ann.screenshot('group-rename', { dark: true });
    await fill(ann, { Name: ' ' });
    expect(await submit(ann, 'Save name')).toBe(400);
    expect(await ann.page.getByText('Enter a name for the group.').count()).toBeGreaterThan(0);
    await fill(ann, { Name: 'Hill household' });
    expect(await submit(ann, 'Save name')).toBe(302);
    expect(path(ann)).toBe(`/groups/${groupId}/`);
    expect(await ann.page.locator('h1').textContent()).toBe('Hill household');
    expect(await ann.page.locator('.activity-list').first().textContent()).toBeDefined();
    await ann.audit();
  });

  test('on a phone the chat box is in view and not focused, Chat is current, and history and live times read alike', async () => {
    const chat = `/groups/${groupId}/chat/`;
    await ann.visit(chat);
    await ann.page.locator('#chat-status[data-state="online"]').waitFor();
    const box = ann.page.getByLabel('Message', { exact: true });
    for (let n = 1; n <= 12; n += 1) {
      await box.fill(`Message number ${n} about the picnic`);
      await box.press('Enter');
      await ann.page.locator('.chat-message.own', { hasText: `Message number ${n} about` }).waitFor();
    }

    await ben.page.setViewportSize(PHONE);
    await ben.visit(chat);
    await ben.page.locator('#chat-status[data-state="online"]').waitFor();
    const layout = await ben.page.evaluate(() => {
      const input = document.getElementById('chat-input')!;
      const box = input.getBoundingClientRect();
      const items = document.querySelectorAll('#chat-log li');
      const newest = items[items.length - 1]!.getBoundingClientRect();
      const scroller = document.getElementById('chat-scroll')!.getBoundingClientRect();
      return {
        box: { top: box.top, bottom: box.bottom },
        newest: { top: newest.top, bottom: newest.bottom },
        scroller: { top: scroller.top, bottom: scroller.bottom },
        height: window.innerHeight,
        scrollY: window.scrollY,
        focused: document.activeElement === input,
      };
    });
    expect(layout.scrollY).toBe(0);
    expect(layout.box.top).toBeGreaterThanOrEqual(0);
    expect(layout.box.bottom).toBeLessThanOrEqual(layout.height);
    expect(layout.focused).toBe(false);
    // The newest message shows at the foot of the history.
    expect(layout.newest.bottom).toBeLessThanOrEqual(layout.scroller.bottom + 1);
    expect(layout.newest.top).toBeGreaterThanOrEqual(layout.scroller.top);
    expect(await ben.page.locator('.nav-count-link').getAttribute('aria-current')).toBe('page');
    expect(await ben.page.getByRole('link', { name: 'Groups', exact: true }).getAttribute('aria-current')).toBeNull();

    await box.fill('A live one');
    await box.press('Enter');
    const live = ben.page.locator('.chat-message', { hasText: 'A live one' }).locator('time');
    await live.waitFor();
    const history = ben.page.locator('.chat-message', { hasText: 'Message number 1 about' }).locator('time');
    const [historyText, liveText] = [await history.textContent(), await live.textContent()];
    expect(historyText).toMatch(TODAY_TIME);
    expect(liveText).toMatch(TODAY_TIME);
    await ben.audit();
    await ben.screenshot('chat-phone');
    await ben.screenshot('chat-phone', { dark: true });
    await ben.page.setViewportSize({ width: 1280, height: 800 });
  });

  test('the notes search placeholder fits at 390 px', async () => {
    await ben.page.setViewportSize(PHONE);
    await ben.visit('/notes/');
    const fits = await ben.page.evaluate(() => {
      const input = document.getElementById('id_q') as HTMLInputElement;
      const style = getComputedStyle(input, '::placeholder');
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const own = getComputedStyle(input);
      const room = input.clientWidth - parseFloat(own.paddingLeft) - parseFloat(own.paddingRight);
      return { text: context.measureText(input.placeholder).width, room };
    });
    expect(fits.text).toBeLessThanOrEqual(fits.room);
    await ben.page.setViewportSize({ width: 1280, height: 800 });
  });

  test('leaving asks first: its confirmation page (no script) and the same question in a dialog', async () => {
    await ben.visit(`/groups/${groupId}/leave/`);
    expect(await ben.page.locator('h1').textContent()).toBe('Leave “Hill household”?');
    expect(await ben.page.locator('main form[method="post"]').count()).toBe(1);
    await ben.screenshot('group-leave');
    await ben.screenshot('group-leave', { dark: true });

    await ben.visit(`/groups/${groupId}/`);
    const leave = ben.page.getByRole('button', { name: 'Leave this group' });
    expect(await leave.getAttribute('data-confirm')).not.toBeNull();
    await leave.click();
    const dialog = ben.page.getByRole('dialog', { name: 'Leave “Hill household”?' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(path(ben)).toBe(`/groups/${groupId}/`);
    expect(await submit(ben, 'Leave group')).toBe(302);
    expect(path(ben)).toBe('/groups/');
    await ben.visit(`/groups/${groupId}/`, 404);
  });
});

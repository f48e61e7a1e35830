import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

// A list taken away from someone who has it open: deleted by its owner, or no longer shared with
// them. Their page says so at once, without a reload, and offers nothing more to send.

describe('a list that goes away while someone has it open', () => {
  let browser: Browser;
  let olga: Person;
  let oleh: Person;

  beforeAll(async () => {
    browser = await launchBrowser();
    olga = await Person.open(browser, 'dl_olga');
    oleh = await Person.open(browser, 'dl_oleh');
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Counts the page's navigations from now on: the notice must cause none. */
  function countNavigations(person: Person): () => number {
    let count = 0;
    person.page.on('framenavigated', (frame) => {
      if (frame === person.page.mainFrame()) count += 1;
    });
    return () => count;
  }

  /** Olga's new shopping list with one item, shared with Oleh, who may tick; its path. */
  async function sharedList(title: string): Promise<string> {
    await olga.visit('/shopping/new/');
    await fill(olga, { Title: title });
    expect(await submit(olga, 'Create list')).toBe(302);
    const listPath = path(olga);
    await fill(olga, { 'What to buy': 'Pears' });
    expect(await submit(olga, 'Add item')).toBe(302);
    await fill(olga, { 'Share with (username)': 'dl_oleh' });
    await olga.page.getByLabel('They may').selectOption('tick');
    expect(await submit(olga, 'Share')).toBe(302);
    return listPath;
  }

  const live = (person: Person) => person.page.locator('#live-list').getAttribute('data-live');
  const notice = (person: Person) => person.page.locator('#live-list').textContent();

  test('olga deletes the list; within 2 s oleh’s open page says so, with no reload and nothing left to send', async () => {
    await register(olga, 'dl_olga');
    await register(oleh, 'dl_oleh');
    const listPath = await sharedList('Garden party');
    await oleh.visit(listPath);
    await expect.poll(() => live(oleh)).toBe('on');
    const navigations = countNavigations(oleh);

    await olga.visit(`${listPath}delete/`);
    expect(await submit(olga, 'Delete shopping list')).toBe(302);

    await expect.poll(() => notice(oleh), { timeout: 2_000 }).toContain('This list was deleted by its owner.');
    expect(await oleh.page.getByRole('alert').textContent()).toBe('This list was deleted by its owner.');
    const back = oleh.page.locator('#live-list').getByRole('link', { name: '← All shopping lists' });
    expect(await back.getAttribute('href')).toBe('/shopping/');
    // The item and its tick are gone; the add and share forms cannot be sent.
    expect(await oleh.page.getByRole('button', { name: /as bought/ }).count()).toBe(0);
    expect(await oleh.page.getByRole('button', { name: 'Add item', exact: true }).isDisabled()).toBe(true);
    expect(await oleh.page.getByLabel('What to buy').isDisabled()).toBe(true);
    // Logging out still works: only the list's forms are disabled.
    expect(await oleh.page.getByRole('button', { name: 'Log out' }).isDisabled()).toBe(false);
    expect(await live(oleh)).toBe('off');
    expect(navigations()).toBe(0);
    await oleh.audit();
    // A reload is the 404 of a missing list.
    await oleh.visit(listPath, 404);
  });

  test('olga stops sharing another list; oleh’s open page says he can no longer see it', async () => {
    const listPath = await sharedList('Picnic');
    await oleh.visit(listPath);
    await expect.poll(() => live(oleh)).toBe('on');
    const navigations = countNavigations(oleh);

    await olga.page.getByRole('button', { name: 'Stop sharing with dl_oleh' }).click();
    await olga.page.waitForLoadState('load');

    await expect.poll(() => notice(oleh), { timeout: 2_000 }).toContain('You can no longer see this list.');
    expect(await oleh.page.getByRole('button', { name: 'Add item', exact: true }).isDisabled()).toBe(true);
    expect(navigations()).toBe(0);
  });
});

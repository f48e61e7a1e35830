import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

// Two people in the same shop: one ticks, the other's open page shows it without a reload.

describe('a live shopping list in two browsers', () => {
  let browser: Browser;
  let lena: Person;
  let lars: Person;

  beforeAll(async () => {
    browser = await launchBrowser();
    lena = await Person.open(browser, 'lena');
    lars = await Person.open(browser, 'lars');
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Counts the page's navigations from now on: a live update must cause none. */
  function countNavigations(person: Person): () => number {
    let count = 0;
    person.page.on('framenavigated', (frame) => {
      if (frame === person.page.mainFrame()) count += 1;
    });
    return () => count;
  }

  const live = (person: Person) => person.page.locator('#live-list').getAttribute('data-live');

  test('lena ticks an item; lars sees it bought and the total drop, with no reload on either side', async () => {
    await register(lena, 'lena');
    await register(lars, 'lars');
    await lena.visit('/shopping/new/');
    await fill(lena, { Title: 'Saturday market' });
    expect(await submit(lena, 'Create list')).toBe(302);
    const listPath = path(lena);
    await fill(lena, { 'What to buy': 'Pears', 'Price per unit (optional)': '2.50' });
    expect(await submit(lena, 'Add item')).toBe(302);
    await fill(lena, { 'What to buy': 'Apples' });
    expect(await submit(lena, 'Add item')).toBe(302);
    await fill(lena, { 'Share with (username)': 'lars' });
    expect(await submit(lena, 'Share')).toBe(302);

    await lars.visit(listPath);
    // A reader gets no tick buttons.
    expect(await lars.page.getByRole('button', { name: /as bought/ }).count()).toBe(0);
    expect(await lars.page.locator('.shopping-total').textContent()).toContain('2.50');
    await expect.poll(() => live(lars)).toBe('on');
    await expect.poll(() => live(lena)).toBe('on');
    const larsNavigations = countNavigations(lars);
    const lenaNavigations = countNavigations(lena);

    const tick = lena.page.getByRole('button', { name: 'Mark “Pears” as bought' });
    await tick.click();

    const larsRow = lars.page.locator('tr', { hasText: 'Pears' });
    await expect.poll(() => larsRow.textContent(), { timeout: 2_000 }).toContain('Bought');
    expect(await lars.page.locator('.shopping-total').textContent()).toContain('0.00');
    // The bought item goes below the one still to buy, where a reload would show it; "Clear bought
    // items" appears on the owner's page, which had none to clear.
    const rows = (person: Person) => person.page.locator('table.shopping-items tbody tr').allTextContents();
    expect((await rows(lars)).map((row) => (row.includes('Pears') ? 'Pears' : 'Apples'))).toEqual(['Apples', 'Pears']);
    await expect.poll(() => lena.page.getByRole('button', { name: 'Clear bought items' }).isVisible()).toBe(true);
    expect((await rows(lena)).map((row) => (row.includes('Pears') ? 'Pears' : 'Apples'))).toEqual(['Apples', 'Pears']);
    // Lena's own page took the tick through the socket too, and kept focus on the row's button.
    await expect.poll(() => lena.page.getByRole('button', { name: 'Mark “Pears” as not bought' }).count()).toBe(1);
    expect(await lena.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Mark “Pears” as not bought');
    expect(larsNavigations()).toBe(0);
    expect(lenaNavigations()).toBe(0);
    await lars.audit();
    await lena.audit();
  });

  test('shared again with tick, lars ticks it back and lena sees it, neither page reloading', async () => {
    const listPath = path(lena);
    await fill(lena, { 'Share with (username)': 'lars' });
    await lena.page.getByLabel('They may').selectOption('tick');
    expect(await submit(lena, 'Share')).toBe(302);
    // Lars's open page is told his permission changed and reloads itself with the tick buttons;
    // visiting it here instead would race that reload.
    const untick = lars.page.getByRole('button', { name: 'Mark “Pears” as not bought' });
    await expect.poll(() => untick.count(), { timeout: 5_000 }).toBe(1);
    expect(path(lars)).toBe(listPath);
    await lars.page.waitForLoadState('load');
    await expect.poll(() => live(lars)).toBe('on');
    await expect.poll(() => live(lena)).toBe('on');
    const larsNavigations = countNavigations(lars);
    const lenaNavigations = countNavigations(lena);
    expect(await lena.page.getByRole('button', { name: 'Clear bought items' }).isVisible()).toBe(true);
    await untick.click();
    await expect.poll(() => lena.page.getByRole('button', { name: 'Mark “Pears” as bought' }).count(), { timeout: 2_000 }).toBe(1);
    expect(await lena.page.locator('.shopping-total').textContent()).toContain('2.50');
    // Back to buy, it goes back above Apples (added after it), and nothing is left to clear.
    const order = (await lena.page.locator('table.shopping-items tbody tr').allTextContents()).map((row) => (row.includes('Pears') ? 'Pears' : 'Apples'));
    expect(order).toEqual(['Pears', 'Apples']);
    expect(await lena.page.getByRole('button', { name: 'Clear bought items' }).isVisible()).toBe(false);
    // A tick user gets no delete button.
    expect(await lars.page.getByRole('button', { name: 'Delete “Pears”' }).count()).toBe(0);
    expect(larsNavigations()).toBe(0);
    expect(lenaNavigations()).toBe(0);
  });

  test('lars, no longer shared with, stops hearing of the list', async () => {
    const listPath = path(lena);
    await lars.visit(listPath);
    await expect.poll(() => live(lars)).toBe('on');
    await lena.page.getByRole('button', { name: 'Stop sharing with lars' }).click();
    await lena.page.waitForLoadState('load');
    await expect.poll(() => live(lars), { timeout: 2_000 }).toBe('off');
  });
});

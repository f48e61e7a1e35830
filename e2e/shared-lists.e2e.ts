import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit, tick } from './actions.js';
import { launchBrowser, Person } from './browser.js';

// A shopping list shared with two people: one may only read it, the other may tick.

describe('a shared shopping list with read and tick permissions', () => {
  let browser: Browser;
  let olga: Person;
  let ruth: Person;
  let tom: Person;
  let listPath = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    olga = await Person.open(browser, 'olga');
    ruth = await Person.open(browser, 'ruth');
    tom = await Person.open(browser, 'tom');
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('olga shares her list with ruth to read and with tom to tick', async () => {
    for (const [person, name] of [[olga, 'olga'], [ruth, 'ruth'], [tom, 'tom']] as const) await register(person, name);
    await olga.visit('/shopping/new/');
    await fill(olga, { Title: 'Saturday market' });
    expect(await submit(olga, 'Create list')).toBe(302);
    listPath = path(olga);
    await fill(olga, { 'What to buy': 'Milk' });
    expect(await submit(olga, 'Add item')).toBe(302);
    await fill(olga, { 'Share with (username)': 'ruth' });
    expect(await submit(olga, 'Share')).toBe(302);
    await fill(olga, { 'Share with (username)': 'tom' });
    await olga.page.getByLabel('They may', { exact: true }).selectOption('tick');
    expect(await submit(olga, 'Share')).toBe(302);
    expect(await olga.page.locator('.shared-users').textContent()).toContain('tom can tick and add items');
  });

  test('ruth, who may only read, sees the item but no tick button and no add form', async () => {
    await ruth.visit(listPath);
    expect(await ruth.page.getByText('Milk', { exact: true }).isVisible()).toBe(true);
    expect(await ruth.page.getByRole('button', { name: 'Mark “Milk” as bought' }).count()).toBe(0);
    expect(await ruth.page.getByRole('button', { name: 'Add item' }).count()).toBe(0);
    await ruth.audit();
  });

  test('tom, who may tick, ticks the item, and ruth then sees who bought it', async () => {
    await tom.visit(listPath);
    expect(await tom.page.getByRole('button', { name: 'Add item' }).count()).toBe(1);
    await tick(tom, 'Mark “Milk” as bought');
    expect(path(tom)).toBe(listPath);
    expect(await tom.page.getByRole('button', { name: 'Mark “Milk” as not bought' }).count()).toBe(1);
    await tom.audit();
    await ruth.visit(listPath);
    expect(await ruth.page.locator('table.shopping-items').textContent()).toContain('bought by tom');
  });
});

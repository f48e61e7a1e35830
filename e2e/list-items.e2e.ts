import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit, tick } from './actions.js';
import { launchBrowser, Person, PHONE } from './browser.js';

// Lists' items in the browser: back at the add form after an add on a phone, the error summary on
// top with the list's URL kept, editing an item, clearing bought items, to-do items by due date
// in a list made for a group (its members offered as assignees at once), and a total in the
// user's currency.

describe('lists and their items in everyday use', () => {
  let browser: Browser;
  let ann: Person;
  let bob: Person;
  let shopPath = '';
  let todoPath = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    ann = await Person.open(browser, 'lf_ann');
    bob = await Person.open(browser, 'lf_bob');
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('on a phone, an added item lands back at the add form, focused', async () => {
    await register(ann, 'lf_ann');
    await register(bob, 'lf_bob');
    await ann.visit('/accounts/');
    await ann.page.getByLabel('Currency').selectOption('EUR');
    expect(await submit(ann, 'Save')).toBe(302);
    await ann.visit('/shopping/new/');
    await fill(ann, { Title: 'Big shop' });
    expect(await submit(ann, 'Create list')).toBe(302);
    shopPath = path(ann);
    await ann.page.setViewportSize(PHONE);
    for (const [name, price] of [['Sofa', '1234,50'], ['Lamp', '20'], ['Milk', '0,99'], ['Bread', '2.49']] as const) {
      await fill(ann, { 'What to buy': name, 'Price per unit (optional)': price });
      expect(await submit(ann, 'Add item')).toBe(302);
    }
    expect(new URL(ann.page.url()).hash).toBe('#add-item');
    // The redirect's page takes the focus once its script has run.
    await expect.poll(() => ann.page.evaluate(() => document.activeElement?.id)).toBe('id_name');
    expect(await ann.page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect(await ann.page.getByLabel('Quantity').getAttribute('inputmode')).toBe('decimal');
    // A tick is a 44 px target on a phone.
    const box = await ann.page.getByRole('button', { name: 'Mark “Milk” as bought' }).boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(44);
    expect(box!.height).toBeGreaterThanOrEqual(44);
    await ann.page.setViewportSize({ width: 1280, height: 800 });
  });

  test('an invalid quantity shows the error summary on top, focused, at the list’s own URL', async () => {
    await fill(ann, { 'What to buy': 'Flour', Quantity: 'abc' });
    expect(await submit(ann, 'Add item')).toBe(400);
    expect(path(ann)).toBe(shopPath);
    expect(await ann.page.evaluate(() => document.activeElement?.hasAttribute('data-error-summary'))).toBe(true);
    expect(await ann.page.locator('.error-summary').textContent()).toContain('Quantity: Enter the quantity as a number');
    await ann.audit(true);
    await ann.screenshot('list-error-summary');
    await ann.screenshot('list-error-summary', { dark: true });
  });

  test('the total is in euros with thousands separators; an item is edited and the bought ones cleared', async () => {
    await ann.visit(shopPath);
    expect(await ann.page.locator('.shopping-total strong').textContent()).toBe('€1,257.98');
    await tick(ann, 'Mark “Milk” as bought');
    await ann.page.getByRole('button', { name: 'Edit “Lamp”' }).click();
    await ann.page.waitForURL(/\/edit\/$/);
    await fill(ann, { Quantity: '2' });
    await ann.audit();
    await ann.screenshot('shopping-item-edit');
    await ann.screenshot('shopping-item-edit', { dark: true });
    expect(await submit(ann, 'Save item')).toBe(302);
    expect(new URL(ann.page.url()).hash).toMatch(/^#item-\d+$/);
    await expect.poll(() => ann.page.evaluate(() => document.activeElement?.textContent)).toContain('Lamp');
    expect(await ann.page.locator('.shopping-total strong').textContent()).toBe('€1,276.99');
    await ann.audit();
    await ann.screenshot('shopping-list-currency');
    await ann.screenshot('shopping-list-currency', { dark: true });
    await ann.page.getByRole('button', { name: 'Clear bought items' }).click();
    const dialog = ann.page.getByRole('dialog');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.locator('h1').textContent()).toContain('Clear the bought items');
    await Promise.all([
      ann.page.waitForURL((url) => !url.pathname.includes('clear-bought') && url.hash === '#live-list'),
      dialog.getByRole('button', { name: 'Clear bought items' }).click(),
    ]);
    await ann.page.waitForLoadState('load');
    expect(await ann.page.locator('table.shopping-items').textContent()).not.toContain('Milk');
  });

  test('a to-do list made for a group offers its members as assignees at once, and its items are sorted by due date', async () => {
    await ann.visit('/groups/new/');
    await fill(ann, { Name: 'LF family' });
    expect(await submit(ann, 'Create group')).toBe(302);
    await fill(ann, { Username: 'lf_bob' });
    expect(await submit(ann, 'Add member')).toBe(302);
    await ann.visit('/todo/new/');
    await fill(ann, { Title: 'Chores' });
    await ann.page.getByLabel('Group (optional)').selectOption({ label: 'LF family' });
    await ann.page.getByLabel('The group’s members may').selectOption('tick');
    expect(await submit(ann, 'Create list')).toBe(302);
    todoPath = path(ann);
    // The group's members are there to give items to, with no sharing first.
    expect(await ann.page.getByLabel('Assigned to (optional)').locator('option').allTextContents()).toEqual(['Nobody', 'lf_ann', 'lf_bob']);
    for (const [text, due, assignee] of [['Undated', '', ''], ['Later', '2031-05-01', 'lf_bob'], ['Sooner', '2031-01-01', '']] as const) {
      await fill(ann, { 'What needs doing': text, 'Due date (optional)': due });
      await ann.page.getByLabel('Assigned to (optional)').selectOption(assignee);
      expect(await submit(ann, 'Add item')).toBe(302);
    }
    const texts = await ann.page.locator('.todo-items .item-text').allTextContents();
    expect(texts).toEqual(['Sooner', 'Later', 'Undated']);
    expect(await ann.page.locator('.shared-group').textContent()).toContain('LF family');
    await ann.audit();
    await ann.screenshot('todo-list-sorted');
    await ann.screenshot('todo-list-sorted', { dark: true });
    await bob.visit(todoPath);
    expect(await bob.page.getByText('Sooner', { exact: true }).isVisible()).toBe(true);
    await bob.visit('/todo/');
    expect(await bob.page.locator('.assigned-items').textContent()).toContain('Later');
  });
});

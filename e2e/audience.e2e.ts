import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

// "Who can see this" on note and list pages, and the group's recent activity: audited (axe in
// both schemes, no sideways scrolling at 360 and 390 px) and photographed. A reader who is not
// the owner is shown the owner, the group and the shares by name as counts; the owner, names.

describe('who can see this, and group activity, in the browser', () => {
  let browser: Browser;
  let vera: Person;
  let walt: Person;
  let groupPath = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    vera = await Person.open(browser, 'vera');
    walt = await Person.open(browser, 'walt');
  });
  afterAll(async () => {
    await browser?.close();
  });

  const panel = (person: Person) => person.page.locator('section.audience');

  test('a group note shows its owner and how many of the group read it to a member, and everyone to its owner', async () => {
    await register(vera, 'vera');
    await register(walt, 'walt');
    await vera.visit('/groups/new/');
    await fill(vera, { Name: 'Allotment' });
    expect(await submit(vera, 'Create group')).toBe(302);
    groupPath = path(vera);
    await fill(vera, { Username: 'walt' });
    expect(await submit(vera, 'Add member')).toBe(302);

    await vera.visit('/notes/new/');
    await fill(vera, { Title: 'Watering rota', Text: 'Mondays: walt' });
    await vera.page.getByLabel('Share with group').selectOption({ label: 'Allotment' });
    expect(await submit(vera, 'Save')).toBe(302);
    const notePath = path(vera);

    await walt.visit(notePath);
    expect(await panel(walt).locator('li').allTextContents()).toEqual(['veracan change itowner · member of Allotment', '2 members of Allotmentcan read']);
    expect(await panel(walt).locator('.audience-self').textContent()).toBe('waltyou can read member of Allotment');
    await vera.visit(notePath);
    expect(await panel(vera).locator('li').allTextContents()).toEqual(['verayoucan change itowner · member of Allotment', 'waltcan readmember of Allotment']);
    await walt.screenshot('note-audience');
    await walt.screenshot('note-audience', { dark: true });
  });

  test('a shopping list of the group and a shared to-do list show who may read them', async () => {
    await vera.visit('/shopping/new/');
    await fill(vera, { Title: 'Seeds' });
    await vera.page.getByLabel('Group (optional)').selectOption({ label: 'Allotment' });
    expect(await submit(vera, 'Create list')).toBe(302);
    const listPath = path(vera);
    await fill(vera, { 'What to buy': 'Carrot seeds' });
    expect(await submit(vera, 'Add item')).toBe(302);
    await walt.visit(listPath);
    expect(await panel(walt).locator('.audience-name').allTextContents()).toEqual(['vera', '2 members of Allotment', 'waltyou']);
    await walt.screenshot('shopping-audience');
    await walt.screenshot('shopping-audience', { dark: true });

    await vera.visit('/todo/new/');
    await fill(vera, { Title: 'Shed repairs' });
    expect(await submit(vera, 'Create list')).toBe(302);
    const todoPath = path(vera);
    await fill(vera, { 'Share with (username)': 'walt' });
    expect(await submit(vera, 'Share')).toBe(302);
    await walt.visit(todoPath);
    expect(await panel(walt).locator('.audience-name').allTextContents()).toEqual(['vera', 'Shared by name with 1 person', 'waltyou']);
    expect(await panel(walt).locator('.audience-via').allTextContents()).toEqual(['owner', 'only the owner sees their names', 'shared by name']);
  });

  test('the group page lists what happened, newest first', async () => {
    await walt.visit(groupPath);
    const lines = await walt.page.locator('.activity-list li > span').allTextContents();
    expect(lines.slice(0, 3)).toEqual([
      'vera changed the shopping list Seeds',
      'vera added the shopping list Seeds to the group',
      'vera shared the note Watering rota with the group',
    ]);
    await walt.screenshot('group-activity');
    await walt.screenshot('group-activity', { dark: true });
  });
});

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

// Confirmations ask in a dialog over the page (public/js/confirm.js), borrowing the confirmation
// page's own question and form; without JavaScript the same link leads to that page.

describe('confirming a deletion', () => {
  let browser: Browser;
  let hana: Person;
  let ivo: Person;

  beforeAll(async () => {
    browser = await launchBrowser();
    hana = await Person.open(browser, 'hana');
    ivo = await Person.open(browser, 'ivo', { javaScript: false });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function newTag(person: Person, name: string) {
    await person.visit('/tags/new/');
    await fill(person, { Name: name });
    expect(await submit(person, 'Save')).toBe(302);
  }

  test('asks in a dialog, focused on Cancel; Escape keeps the tag and gives the focus back to the link', async () => {
    await register(hana, 'hana');
    await newTag(hana, 'Garden');
    await hana.visit('/tags/');
    const link = hana.page.getByRole('link', { name: 'Delete Garden' });
    await link.click();
    const dialog = hana.page.getByRole('dialog', { name: 'Delete this tag?' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(path(hana)).toBe('/tags/');
    expect(await hana.page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await hana.audit();
    await hana.screenshot('confirm-dialog');
    await hana.screenshot('confirm-dialog', { dark: true });

    await hana.page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await hana.page.evaluate(() => document.activeElement?.textContent)).toBe('Delete Garden');
    expect(await hana.page.getByRole('link', { name: 'Delete Garden' }).count()).toBe(1);
  });

  test('deletes after Delete in the dialog, as the page\'s form would', async () => {
    await hana.page.getByRole('link', { name: 'Delete Garden' }).click();
    const dialog = hana.page.getByRole('dialog', { name: 'Delete this tag?' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await submit(hana, 'Delete')).toBe(302);
    expect(path(hana)).toBe('/tags/');
    await expect.poll(() => hana.page.getByText('Tag deleted.').isVisible()).toBe(true);
    expect(await hana.page.getByRole('link', { name: 'Delete Garden' }).count()).toBe(0);
  });

  test('without JavaScript the link opens the confirmation page', async () => {
    await register(ivo, 'ivo');
    await newTag(ivo, 'Attic');
    await ivo.visit('/tags/');
    await ivo.page.getByRole('link', { name: 'Delete Attic' }).click();
    await ivo.page.waitForLoadState('load');
    expect(path(ivo)).toMatch(/^\/tags\/\d+\/delete\/$/);
    expect(await submit(ivo, 'Delete')).toBe(302);
    expect(await ivo.page.getByRole('link', { name: 'Delete Attic' }).count()).toBe(0);
  });
});

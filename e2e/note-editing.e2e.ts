import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

// Notes in everyday use, in the browser: an edit lands on the note, "New note" from a notebook
// preselects it, search keeps the tag filter and counts archived matches, a group member sees
// who pinned a note, archive is one click at the top of a long note, task lists are checkboxes.

const TASKS = '- [ ] Book the ferry\n- [x] Renew passports\n- [ ] Water the plants';

describe('notes in everyday use, in the browser', () => {
  let browser: Browser;
  let ana: Person;
  let ben: Person;
  let notePath = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    ana = await Person.open(browser, 'nf_ana');
    ben = await Person.open(browser, 'nf_ben');
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('"New note" on a notebook page preselects it, and saving an edit lands on the note', async () => {
    await register(ana, 'nf_ana');
    await register(ben, 'nf_ben');
    await ana.visit('/notebooks/new/');
    await fill(ana, { Title: 'Holidays' });
    expect(await submit(ana, 'Save')).toBe(302);
    await ana.page.getByRole('button', { name: 'New note', exact: true }).click();
    await ana.audit();
    expect(await ana.page.getByLabel('Notebook').locator('option:checked').textContent()).toBe('Holidays');
    await fill(ana, { Title: 'Trip checklist', Text: `Long preparations.\n\n${'Some paragraph of notes.\n\n'.repeat(40)}${TASKS}` });
    expect(await submit(ana, 'Save')).toBe(302);
    notePath = path(ana);

    await ana.page.getByRole('button', { name: 'Edit', exact: true }).click();
    await ana.audit();
    await fill(ana, { Title: 'Trip checklist 2026' });
    expect(await submit(ana, 'Save')).toBe(302);
    expect(path(ana)).toBe(notePath);
    await expect.poll(() => ana.page.getByRole('heading', { level: 1 }).textContent()).toBe('Trip checklist 2026');
  });

  test('task lists are read-only checkboxes named by their text', async () => {
    const ferry = ana.page.getByRole('checkbox', { name: 'Book the ferry' });
    expect(await ferry.isDisabled()).toBe(true);
    expect(await ferry.isChecked()).toBe(false);
    expect(await ana.page.getByRole('checkbox', { name: 'Renew passports' }).isChecked()).toBe(true);
  });

  test('archive is one click at the top of a long note, above the fold on a phone', async () => {
    await ana.page.setViewportSize({ width: 390, height: 844 });
    const archive = ana.page.getByRole('button', { name: 'Archive', exact: true });
    const box = await archive.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y + box!.height).toBeLessThan(844);
    await ana.page.setViewportSize({ width: 1280, height: 800 });
    await ana.page.evaluate(() => window.scrollTo(0, 0));
    await ana.screenshot('note-top-actions');
    await ana.screenshot('note-top-actions', { dark: true });
    expect(await submit(ana, 'Archive')).toBe(302);
    expect(path(ana)).toBe(notePath);
    await ana.audit();
    expect(await ana.page.getByRole('button', { name: 'Unarchive', exact: true }).isVisible()).toBe(true);
    expect(await ana.page.getByRole('button', { name: 'Delete', exact: true }).getAttribute('data-confirm')).not.toBeNull();
  });

  test('a search from a tag keeps the tag, and says how many archived notes match too', async () => {
    await ana.visit('/tags/new/');
    await fill(ana, { Name: 'travel' });
    expect(await submit(ana, 'Save')).toBe(302);
    for (const title of ['Trip budget', 'Trip photos']) {
      await ana.visit('/notes/new/');
      await fill(ana, { Title: title, Text: 'For the trip.' });
      if (title === 'Trip budget') await ana.page.getByLabel('travel').check();
      expect(await submit(ana, 'Save')).toBe(302);
    }
    await ana.visit('/notes/');
    await ana.page.getByRole('link', { name: /travel/ }).first().click();
    await ana.audit();
    await fill(ana, { 'Search notes': 'trip' });
    expect(await submit(ana, 'Search')).toBe(200);
    const url = new URL(ana.page.url());
    expect(url.searchParams.get('tag')).not.toBeNull();
    expect(await ana.page.locator('.note-title').allTextContents()).toEqual(['Trip budget']);
    expect(await ana.page.locator('.filter-chips').textContent()).toContain('tagged “travel”');

    await ana.page.getByRole('link', { name: /tagged “travel”/ }).click();
    await ana.audit();
    expect(new URL(ana.page.url()).searchParams.get('tag')).toBeNull();
    expect(await ana.page.locator('.note-title').allTextContents()).toEqual(['Trip photos', 'Trip budget']);
    expect(await ana.page.locator('.other-matches').textContent()).toContain('1 archived note also matches.');
    await ana.screenshot('note-search-archived-count');
    await ana.screenshot('note-search-archived-count', { dark: true });
    await ana.page.getByRole('link', { name: 'Search archived notes' }).click();
    await ana.audit();
    expect(await ana.page.locator('.note-title').allTextContents()).toEqual(['Trip checklist 2026']);
  });

  test('a group member sees who pinned a note; the owner sees "Pinned"', async () => {
    await ana.visit('/groups/new/');
    await fill(ana, { Name: 'nf family' });
    expect(await submit(ana, 'Create group')).toBe(302);
    await fill(ana, { Username: 'nf_ben' });
    expect(await submit(ana, 'Add member')).toBe(302);
    await ana.visit('/notes/new/');
    await fill(ana, { Title: 'House rules', Text: 'Shoes off.' });
    await ana.page.getByLabel('Share with group').selectOption({ label: 'nf family' });
    await ana.page.getByLabel('Pinned (shown first)').check();
    expect(await submit(ana, 'Save')).toBe(302);
    expect(await ana.page.locator('.badge-pinned').textContent()).toBe('Pinned');
    await ben.visit('/notes/');
    expect(await ben.page.locator('.badge-pinned').allTextContents()).toEqual(['Pinned by nf_ana']);
    expect(await ben.page.getByRole('button', { name: /^(Pin|Unpin) / }).count()).toBe(0);
  });

  test('leaving a half-written note through the navigation asks first; staying keeps the text, saving asks nothing', async () => {
    await ana.visit('/notes/new/');
    await fill(ana, { Title: 'Half written' });
    // Typed as a person types (a browser asks before leaving only a page someone has used).
    await ana.page.getByLabel('Text').click();
    await ana.page.keyboard.type('The first thoughts');
    const asked: string[] = [];
    ana.page.once('dialog', (dialog) => {
      asked.push(dialog.type());
      void dialog.dismiss();
    });
    await ana.page.getByRole('link', { name: 'Notebooks', exact: true }).click();
    await expect.poll(() => asked).toEqual(['beforeunload']);
    expect(new URL(ana.page.url()).pathname).toBe('/notes/new/');
    expect(await ana.page.getByLabel('Text').inputValue()).toBe('The first thoughts');
    // Saved, it leaves without a question; a form left as it came asks nothing either.
    ana.page.on('dialog', (dialog) => {
      asked.push(dialog.type());
      void dialog.accept();
    });
    expect(await submit(ana, 'Save')).toBe(302);
    await ana.visit('/notes/new/');
    await ana.page.getByRole('link', { name: 'Notebooks', exact: true }).click();
    await ana.page.waitForURL('**/notebooks/');
    expect(asked).toEqual(['beforeunload']);
    ana.page.removeAllListeners('dialog');
  });

  test('an Arabic paragraph reads right to left, aligned right, beside an English one; the list’s preview keeps them on two lines', async () => {
    await ana.visit('/notes/new/');
    await fill(ana, { Title: 'Two scripts', Text: 'Bread and milk first.\n\nمرحبا بالعالم، هذه ملاحظة' });
    expect(await submit(ana, 'Save')).toBe(302);
    const edges = (selector: string) =>
      ana.page.locator(selector).evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        const text = range.getBoundingClientRect();
        const box = element.getBoundingClientRect();
        return { fromLeft: text.left - box.left, fromRight: box.right - text.right };
      });
    const english = await edges('.markdown p:first-child');
    const arabic = await edges('.markdown p:last-child');
    expect(english.fromLeft).toBeLessThan(2);
    expect(english.fromRight).toBeGreaterThan(20);
    expect(arabic.fromRight).toBeLessThan(2);
    expect(arabic.fromLeft).toBeGreaterThan(20);
    await ana.visit('/notes/');
    const preview = ana.page.locator('.note-item', { hasText: 'Two scripts' }).locator('.note-excerpt');
    expect(await preview.evaluate((element) => element.getClientRects().length === 1 && element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight))).toBeGreaterThanOrEqual(1.9);
  });
});

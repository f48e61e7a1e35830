import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PASSWORD, path } from './actions.js';
import { DESKTOP, launchBrowser, PHONE, Person } from './browser.js';

// The page's language follows the browser's (Accept-Language) until the user chooses one.
// Oksana's browser asks for Ukrainian: every page she opens is <html lang="uk"> with its
// navigation in Ukrainian, and passes the same audits (axe, no sideways scrolling) as in English.
// The forms are filled by their fields' names; each page's own words are checked by a heading
// or a message from its catalogue (locales/uk/), and a price is typed the Ukrainian way.

/** The navigation's words in Ukrainian (locales/uk/platform.json). */
const NAVIGATION = ['Нотатки', 'Блокноти', 'Теги', 'Справи', 'Покупки', 'Групи'];

describe('the interface in the browser\'s language', () => {
  let browser: Browser;
  let oksana: Person;

  beforeAll(async () => {
    browser = await launchBrowser();
    oksana = await Person.open(browser, 'oksana', { locale: 'uk-UA' });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Fills the post form holding the first field by the fields' names, sends it, and answers its response's status. */
  async function send(fields: Record<string, string>): Promise<number> {
    const page = oksana.page;
    const names = Object.keys(fields);
    for (const [name, value] of Object.entries(fields)) await page.locator(`main form[method="post"] [name="${name}"]`).fill(value);
    const form = page.locator(`main form[method="post"]:has([name="${names[0]}"])`);
    oksana.forgetErrors();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().isNavigationRequest() && r.request().frame() === page.mainFrame()),
      form.locator('button[type="submit"]').first().click(),
    ]);
    await page.waitForLoadState('load');
    return response.status();
  }

  /** The page is Ukrainian: <html lang>, the navigation and the skip link. */
  async function expectUkrainianLayout(): Promise<void> {
    expect(await oksana.page.getAttribute('html', 'lang')).toBe('uk');
    const navigation = oksana.page.getByRole('navigation', { name: 'Головне меню' });
    for (const section of NAVIGATION) expect(await navigation.getByRole('link', { name: section, exact: true }).count(), section).toBe(1);
    expect(await navigation.getByRole('button', { name: 'Вийти' }).count()).toBe(1);
    expect(await navigation.getByRole('link', { name: /^Сповіщення, / }).count()).toBe(1);
    expect(await oksana.page.getByRole('link', { name: 'Перейти до вмісту' }).count()).toBe(1);
  }

  test('a browser set to Ukrainian gets the login page in Ukrainian, <html lang="uk">', async () => {
    await oksana.visit('/accounts/login/');
    expect(await oksana.page.getAttribute('html', 'lang')).toBe('uk');
    expect(await oksana.page.getByRole('heading', { level: 1 }).textContent()).toBe('Вхід');
    expect(await oksana.page.getByLabel('Ім’я користувача').count()).toBe(1);
    expect(await oksana.page.getByRole('button', { name: 'Увійти' }).count()).toBe(1);
    await oksana.screenshot('login-uk');
  });

  // The pages in order, each a test of its own: each one's audits and screenshots take a while.
  let group = '';

  test('registration leads to the notes list, in Ukrainian', async () => {
    const username = `oksana_${Date.now() % 100000}`;
    await oksana.visit('/register/');
    expect(await send({ username, password1: PASSWORD, password2: PASSWORD })).toBe(302);
    expect(path(oksana)).toBe('/notes/');
    await oksana.audit();
    await expectUkrainianLayout();
    expect(await oksana.page.getByRole('heading', { level: 1 }).textContent()).toBe('Нотатки');
    await oksana.screenshot('notes-list-uk');
  });

  test('a note form sent empty comes back with its errors', async () => {
    await oksana.visit('/notes/new/');
    expect(await send({ title: '' })).toBe(400);
    await oksana.audit(true);
    await expectUkrainianLayout();
    expect(await oksana.page.locator('[aria-invalid="true"]').count()).toBeGreaterThan(0);
    expect(await oksana.page.locator('.field-errors').first().textContent()).toContain('Це поле обов’язкове.');
    await oksana.screenshot('note-form-errors-uk');
  });

  test('a notebook', async () => {
    await oksana.visit('/notebooks/new/');
    expect(await send({ title: 'Рецепти' })).toBe(302);
    await oksana.audit();
    await expectUkrainianLayout();
    expect(await oksana.page.getByRole('heading', { level: 1 }).textContent()).toContain('Рецепти');
    await oksana.screenshot('notebook-uk');
  });

  test('the to-do lists and a shopping list', async () => {
    await oksana.visit('/todo/');
    await expectUkrainianLayout();
    await oksana.screenshot('todo-uk');
    await oksana.visit('/shopping/new/');
    expect(await send({ title: 'Субота' })).toBe(302);
    expect(await send({ name: 'Буряк', estimated_price: '8,69' })).toBe(302);
    await oksana.audit();
    await expectUkrainianLayout();
    expect(await oksana.page.locator('main').textContent()).toContain('8,69');
    // On a phone no header of the items' table breaks inside a word: each shown word is one line.
    await oksana.page.setViewportSize(PHONE);
    const broken = await oksana.page.locator('.shopping-items th').evaluateAll((headers) =>
      headers.flatMap((header) => {
        const walker = document.createTreeWalker(header, NodeFilter.SHOW_TEXT);
        const words: string[] = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          // Not shown (display: none) or left to screen readers (a 1 px box): not seen, not measured.
          if (node.parentElement!.getBoundingClientRect().width <= 1) continue;
          for (const match of node.textContent!.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index!);
            range.setEnd(node, match.index! + match[0].length);
            if (range.getClientRects().length > 1) words.push(match[0]);
          }
        }
        return words;
      }),
    );
    expect(broken).toEqual([]);
    await oksana.page.setViewportSize(DESKTOP);
    await oksana.screenshot('shopping-list-uk');
    await oksana.screenshot('shopping-list-uk', { dark: true });
  });

  test('a group and its chat', async () => {
    await oksana.visit('/groups/new/');
    expect(await send({ name: 'Сусіди' })).toBe(302);
    await oksana.audit();
    await expectUkrainianLayout();
    group = /^\/groups\/(\d+)\//.exec(path(oksana))?.[1] ?? '';
    expect(group, path(oksana)).not.toBe('');
    await oksana.screenshot('group-uk');
    await oksana.visit(`/groups/${group}/chat/`);
    await expectUkrainianLayout();
    expect(await oksana.page.getByRole('heading', { level: 1 }).textContent()).toBe('Чат групи Сусіди');
    await oksana.screenshot('chat-uk');
    await oksana.screenshot('chat-uk', { dark: true });
  });

  test('the account page', async () => {
    await oksana.visit('/accounts/');
    await expectUkrainianLayout();
    expect(await oksana.page.getByRole('heading', { level: 1 }).textContent()).toBe('Ваш обліковий запис');
    await oksana.screenshot('account-uk');
    await oksana.screenshot('account-uk', { dark: true });
  });
});

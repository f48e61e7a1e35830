import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, Person } from './browser.js';

// The page's language follows the browser's (Accept-Language) until the user chooses one.

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

  test('a browser set to Ukrainian gets the login page in Ukrainian, <html lang="uk">', async () => {
    await oksana.visit('/accounts/login/');
    expect(await oksana.page.getAttribute('html', 'lang')).toBe('uk');
    expect(await oksana.page.getByRole('heading', { level: 1 }).textContent()).toBe('Вхід');
    expect(await oksana.page.getByLabel('Ім’я користувача').count()).toBe(1);
    expect(await oksana.page.getByRole('button', { name: 'Увійти' }).count()).toBe(1);
    await oksana.screenshot('login-uk');
  });
});

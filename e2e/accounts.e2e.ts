import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, logIn, logOut, PASSWORD, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

describe('accounts in the browser', () => {
  let browser: Browser;
  let carol: Person;

  beforeAll(async () => {
    browser = await launchBrowser();
    carol = await Person.open(browser, 'carol');
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('the start page leads a visitor to the login form', async () => {
    await carol.visit('/');
    expect(path(carol)).toBe('/accounts/login/');
    await expect.poll(() => carol.page.getByRole('heading', { level: 1, name: 'Log in' }).isVisible()).toBe(true);
    expect(await carol.page.title()).toBe('Log in · groupnotes');
    await carol.screenshot('login');
  });

  test('the skip link comes first on the keyboard and its focus is visible', async () => {
    await carol.visit('/register/');
    await carol.page.keyboard.press('Tab');
    const focused = await carol.page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const box = element.getBoundingClientRect();
      return { text: element.textContent, outline: getComputedStyle(element).outlineStyle, left: box.left, top: box.top };
    });
    expect(focused.text).toBe('Skip to content');
    expect(focused.outline).not.toBe('none');
    expect(focused.left).toBeGreaterThanOrEqual(0);
    expect(focused.top).toBeGreaterThanOrEqual(0);
  });

  test('a protected page asks for a login, then comes back to it', async () => {
    await carol.visit('/accounts/sessions/');
    expect(path(carol)).toBe('/accounts/login/?next=%2Faccounts%2Fsessions%2F');
  });

  test('registration shows errors next to the fields and keeps what was typed', async () => {
    await carol.visit('/register/');
    await carol.screenshot('register');
    await fill(carol, { Username: 'carol', 'Email (optional)': 'not-an-address', Password: PASSWORD, 'Password again': 'something-else-entirely' });
    expect(await submit(carol, 'Create account')).toBe(400);
    await carol.audit(true);
    const page = carol.page;
    expect(await page.getByLabel('Username', { exact: true }).inputValue()).toBe('carol');
    for (const label of ['Email (optional)', 'Password again']) {
      const input = page.getByLabel(label, { exact: true });
      expect(await input.getAttribute('aria-invalid'), label).toBe('true');
      const errorId = (await input.getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('_errors'))!;
      expect(await page.locator(`#${errorId}`).isVisible(), `${label} error shown`).toBe(true);
    }
    await carol.screenshot('register-errors');
  });

  test('a new account is logged in and welcomed', async () => {
    await register(carol, 'carol');
  });

  test('logout ends the session and says so', async () => {
    await logOut(carol);
    await carol.visit('/accounts/sessions/');
    expect(path(carol)).toMatch(/^\/accounts\/login\//);
  });

  test('a wrong password shows the form again with an error, and no session', async () => {
    await carol.visit('/accounts/login/');
    await fill(carol, { Username: 'carol', Password: 'not-my-password' });
    expect(await submit(carol, 'Log in')).toBe(400);
    await carol.audit(true);
    await expect.poll(() => carol.page.getByRole('alert').textContent()).toContain('Please enter a correct username and password');
    expect((await carol.context.cookies()).some((c) => c.name === 'sessionid')).toBe(false);
    await carol.screenshot('login-error');
  });

  test('logging in from a protected page returns to it', async () => {
    await carol.visit('/accounts/sessions/');
    await fill(carol, { Username: 'carol', Password: PASSWORD });
    expect(await submit(carol, 'Log in')).toBe(302);
    expect(path(carol)).toBe('/accounts/sessions/');
    await carol.audit();
    await expect.poll(() => carol.page.getByText('this browser').isVisible()).toBe(true);
    await carol.screenshot('sessions');
  });

  test('the account page keeps the email and time zone chosen', async () => {
    await carol.visit('/accounts/');
    await carol.audit();
    // Registration guessed the browser's zone (public/js/app.js): one this server knows.
    expect(await carol.page.getByLabel('Time zone').inputValue()).toMatch(/^[A-Za-z]+(\/[A-Za-z_+-]+)*$/);
    // A new address takes the current password, typed in the same form.
    await fill(carol, { 'Email (optional)': 'carol@example.org', 'Your current password': PASSWORD });
    await carol.page.getByLabel('Time zone').selectOption('Asia/Tokyo');
    expect(await submit(carol, 'Save')).toBe(302);
    expect(path(carol)).toBe('/accounts/');
    await expect.poll(() => carol.page.getByText('Your account was saved.').isVisible()).toBe(true);
    expect(await carol.page.getByLabel('Time zone').inputValue()).toBe('Asia/Tokyo');
    expect(await carol.page.getByLabel('Email (optional)').inputValue()).toBe('carol@example.org');
    await carol.screenshot('account');
    await carol.screenshot('account', { dark: true });
  });

  test('changing the email with the session alone asks for the password, then saves it', async () => {
    await carol.visit('/accounts/');
    await fill(carol, { 'Email (optional)': 'carol@example.net' });
    expect(await submit(carol, 'Save')).toBe(400);
    expect(path(carol)).toBe('/accounts/');
    await carol.audit(true);
    await expect.poll(() => carol.page.getByText('Enter your current password to confirm it is you.').isVisible()).toBe(true);
    expect(await carol.page.getByLabel('Your current password').getAttribute('aria-invalid')).toBe('true');
    // The new address waits in the form, not saved.
    expect(await carol.page.getByLabel('Email (optional)').inputValue()).toBe('carol@example.net');
    await fill(carol, { 'Your current password': PASSWORD });
    expect(await submit(carol, 'Save')).toBe(302);
    expect(path(carol)).toBe('/accounts/');
    await expect.poll(() => carol.page.getByText('Your account was saved.').isVisible()).toBe(true);
    expect(await carol.page.getByLabel('Email (optional)').inputValue()).toBe('carol@example.net');
    expect(await carol.page.getByLabel('Time zone').inputValue()).toBe('Asia/Tokyo');
  });

  test('password change: errors by the field, then success ends the old password', async () => {
    await carol.visit('/accounts/password_change/');
    await fill(carol, { 'Current password': 'wrong-password-here', 'New password': 'quince-harbour-meadow', 'New password again': 'quince-harbour-meadow' });
    expect(await submit(carol, 'Change password')).toBe(400);
    await carol.audit(true);
    expect(await carol.page.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
    await carol.screenshot('password-change-errors');
    await fill(carol, { 'Current password': PASSWORD, 'New password': 'quince-harbour-meadow', 'New password again': 'quince-harbour-meadow' });
    expect(await submit(carol, 'Change password')).toBe(302);
    expect(path(carol)).toBe('/accounts/password_change/done/');
    await carol.audit();
    await logOut(carol);
    await carol.visit('/accounts/login/');
    await fill(carol, { Username: 'carol', Password: PASSWORD });
    expect(await submit(carol, 'Log in')).toBe(400);
    await logIn(carol, 'carol', 'quince-harbour-meadow');
  });

  test('error pages are styled pages of the site', async () => {
    await carol.visit('/no-such-page/', 404);
    await expect.poll(() => carol.page.getByRole('heading', { level: 1 }).textContent()).toContain('404');
    expect(await carol.page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    await carol.screenshot('not-found');
  });

  test('a form with a forged CSRF token is refused with a 403 page', async () => {
    const visitor = await Person.open(browser, 'visitor');
    await visitor.visit('/accounts/login/');
    await visitor.page.locator('input[name=csrfmiddlewaretoken]').evaluate((input: HTMLInputElement) => {
      input.value = 'x'.repeat(64);
    });
    await fill(visitor, { Username: 'carol', Password: 'whatever-it-is' });
    expect(await submit(visitor, 'Log in')).toBe(403);
    await visitor.audit(true);
    await expect.poll(() => visitor.page.getByRole('main').textContent()).toContain('CSRF verification failed');
    await visitor.close();
  });

  test('without JavaScript the forms still work: log in, write a note, log out', async () => {
    const plain = await Person.open(browser, 'carol without JavaScript', { javaScript: false });
    await logIn(plain, 'carol', 'quince-harbour-meadow');
    await plain.visit('/accounts/sessions/');
    await plain.visit('/notes/new/');
    await fill(plain, { Title: 'Written without JavaScript', Text: 'Plain **forms** work.' });
    expect(await submit(plain, 'Save')).toBe(302);
    expect(await plain.page.locator('.markdown strong').textContent()).toBe('forms');
    await logOut(plain);
    await plain.close();
  });
});

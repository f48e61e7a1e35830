import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { fill, logIn, logOut, PASSWORD, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';
import { mailCount, mailTo, resetLinkIn } from './mail.js';
import { runCli } from './server.js';

const NEW_PASSWORD = 'quince-harbour-compass';

describe('password reset by mail in the browser', () => {
  let browser: Browser;
  let frank: Person;
  let grace: Person;

  beforeAll(async () => {
    browser = await launchBrowser();
    frank = await Person.open(browser, 'frank');
    grace = await Person.open(browser, 'grace');
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('an account without an email address is told that reset needs one, and adds one', async () => {
    await register(frank, 'frank');
    await frank.visit('/accounts/');
    await expect.poll(() => frank.page.getByRole('note').textContent()).toContain('Your account has no email address');
    await frank.screenshot('account-no-email');
    await fill(frank, { 'Email (optional)': 'frank@example.test', 'Your current password': PASSWORD });
    expect(await submit(frank, 'Save')).toBe(302);
    await frank.audit();
    await expect.poll(() => frank.page.getByText('Your account was saved.').isVisible()).toBe(true);
    expect(await frank.page.getByRole('note').count()).toBe(0);
  });

  test('forgot password -> mail -> new password -> signed in with it; the old one is refused', async () => {
    await logOut(frank);
    await frank.page.getByRole('link', { name: 'Forgot your password?' }).click();
    await frank.audit();
    expect(path(frank)).toBe('/accounts/password_reset/');
    await frank.screenshot('password-reset');

    const before = mailCount();
    await fill(frank, { Email: 'frank@example.test' });
    expect(await submit(frank, 'Send the link')).toBe(302);
    await frank.audit();
    expect(path(frank)).toBe('/accounts/password_reset/done/');
    await frank.screenshot('password-reset-done');

    const mail = await mailTo('frank@example.test', before);
    expect(mail.subject).toBe('Reset your groupnotes password');
    expect(mail.text).toContain('Your username, in case you have forgotten it: frank');
    const link = resetLinkIn(mail);
    const afterLink = mailCount();
    await frank.visit(link);
    await expect.poll(() => frank.page.getByRole('heading', { level: 1 }).textContent()).toBe('Choose a new password');
    await frank.screenshot('password-reset-confirm');
    await fill(frank, { 'New password': NEW_PASSWORD, 'New password again': NEW_PASSWORD });
    expect(await submit(frank, 'Set password')).toBe(302);
    await frank.audit();
    expect(path(frank)).toBe('/accounts/reset/done/');
    await frank.screenshot('password-reset-complete');
    // The address is told that the password was set anew.
    expect((await mailTo('frank@example.test', afterLink)).subject).toBe('Your groupnotes password was reset');

    // The link worked once.
    await frank.visit(link, 400);
    await expect.poll(() => frank.page.getByRole('heading', { level: 1 }).textContent()).toBe('This link no longer works');

    await frank.visit('/accounts/login/');
    await fill(frank, { Username: 'frank', Password: PASSWORD });
    expect(await submit(frank, 'Log in')).toBe(400);
    await frank.audit(true);
    await expect.poll(() => frank.page.getByRole('alert').textContent()).toContain('Please enter a correct username and password');
    await logIn(frank, 'frank', NEW_PASSWORD);
  });

  test('an administrator sends a reset mail from the users page, and it shows in the audit log', async () => {
    await register(grace, 'grace');
    // The command line makes her an administrator, as the person running the instance would.
    runCli(inject('databaseUrl'), ['promote', 'grace']);
    const halsBrowser = await Person.open(browser, 'hal');
    await register(halsBrowser, 'hal');
    await halsBrowser.close();
    await grace.visit('/admin/users/');
    const hal = grace.page.getByRole('row').filter({ hasText: 'hal' });
    await expect.poll(() => hal.textContent()).toContain('Password reset needs an email address.');
    expect(await hal.getByRole('button', { name: 'Send reset mail to hal' }).count()).toBe(0);

    const before = mailCount();
    expect(await submit(grace, 'Send reset mail to frank')).toBe(302);
    await grace.audit();
    expect(path(grace)).toBe('/admin/users/');
    await expect.poll(() => grace.page.getByText('A password-reset mail to frank@example.test is on its way to frank.').isVisible()).toBe(true);
    await grace.screenshot('admin-users');
    const mail = await mailTo('frank@example.test', before);
    const link = resetLinkIn(mail);
    const stranger = await Person.open(browser, 'stranger');
    await stranger.visit(link);
    await stranger.close();

    await grace.page.getByRole('link', { name: 'Audit log' }).click();
    await grace.audit();
    const entry = grace.page.getByRole('row').filter({ hasText: 'sent a password-reset mail to' });
    await expect.poll(() => entry.textContent()).toContain('frank');
    await grace.screenshot('admin-audit');
  });
});

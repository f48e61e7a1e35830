import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { totpCode } from '../test/index.js';
import { fill, logOut, PASSWORD, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

describe('two-factor sign-in in the browser', () => {
  let browser: Browser;
  let erin: Person;
  let secret = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    erin = await Person.open(browser, 'erin');
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('the QR code shows (the CSP lets the data: image through) beside the secret', async () => {
    await register(erin, 'erin');
    await erin.visit('/accounts/sessions/');
    await erin.page.getByRole('link', { name: 'Two-factor sign-in' }).click();
    await erin.audit();
    expect(path(erin)).toBe('/accounts/2fa/');
    const qr = erin.page.getByRole('img', { name: 'QR code holding your two-factor secret' });
    await expect.poll(() => qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    secret = (await erin.page.locator('article code').textContent())!.replace(/ /g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await erin.screenshot('two-factor-setup');
  });

  test('a code from the app turns it on, with the password, and shows the recovery codes', async () => {
    // The session alone does not: the form comes back asking for the password, with a new QR code kept.
    await fill(erin, { 'Then type the code the app shows': totpCode(secret) });
    expect(await submit(erin, 'Turn on two-factor sign-in')).toBe(400);
    await erin.audit(true);
    await expect.poll(() => erin.page.getByText('Enter your current password to confirm it is you.').isVisible()).toBe(true);
    expect((await erin.page.locator('article code').textContent())!.replace(/ /g, '')).toBe(secret);
    await fill(erin, { 'Then type the code the app shows': totpCode(secret), 'Your current password': PASSWORD });
    expect(await submit(erin, 'Turn on two-factor sign-in')).toBe(200);
    await erin.audit();
    expect(await erin.page.locator('.recovery-codes li').count()).toBe(10);
    await erin.screenshot('two-factor-recovery-codes');
  });

  test('sign-in then asks for a code after the password', async () => {
    await logOut(erin);
    await fill(erin, { Username: 'erin', Password: PASSWORD });
    expect(await submit(erin, 'Log in')).toBe(302);
    expect(path(erin)).toBe('/accounts/login/2fa/');
    await erin.audit();
    expect((await erin.context.cookies()).some((cookie) => cookie.name === 'sessionid')).toBe(false);
    await erin.screenshot('two-factor-login');
    // The step after the one that turned it on: a code is never taken twice.
    await fill(erin, { 'Code from your app': totpCode(secret, Date.now() + 30_000) });
    expect(await submit(erin, 'Log in')).toBe(302);
    expect(path(erin)).toBe('/notes/');
  });
});

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

describe('access tokens in the browser', () => {
  let browser: Browser;
  let dora: Person;

  beforeAll(async () => {
    browser = await launchBrowser();
    dora = await Person.open(browser, 'dora');
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('a new token is shown once, then only its hint; revoking it takes it off the list', async () => {
    await register(dora, 'dora');
    await dora.visit('/accounts/');
    await dora.page.getByRole('link', { name: 'Access tokens' }).click();
    await dora.audit();
    expect(path(dora)).toBe('/accounts/tokens/');
    await fill(dora, { Name: 'backup script' });
    await dora.page.getByLabel('Scope').selectOption('write');
    expect(await submit(dora, 'Create token')).toBe(200);
    await dora.audit();
    const token = await dora.page.locator('.token-value').textContent();
    expect(token).toMatch(/^gnp_[A-Za-z0-9]{40}$/);
    await expect.poll(() => dora.page.getByText('it is shown only this once').isVisible()).toBe(true);
    await dora.screenshot('tokens');
    await dora.visit('/accounts/tokens/');
    expect(await dora.page.content()).not.toContain(token!);
    expect(await dora.page.getByText(`${token!.slice(0, 8)}…`).isVisible()).toBe(true);
    expect(await submit(dora, 'Revoke backup script')).toBe(302);
    await dora.audit();
    await expect.poll(() => dora.page.getByText('You have no tokens yet.').isVisible()).toBe(true);
  });
});

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { fill, PASSWORD, path, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

// A person makes a personal access token in the browser, a script uses it, the person revokes it.

/** What a script holding the token gets from the API. */
const me = (token: string) => fetch(`${inject('baseUrl')}/api/v1/me/`, { headers: { authorization: `Bearer ${token}` } });

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

  test('a new token is shown once, works for a script, then only its hint shows; revoking it ends it', async () => {
    await register(dora, 'dora');
    await dora.visit('/accounts/');
    await dora.page.getByRole('link', { name: 'Access tokens' }).click();
    await dora.audit();
    expect(path(dora)).toBe('/accounts/tokens/');
    await fill(dora, { Name: 'backup script', 'Your current password': PASSWORD });
    await dora.page.getByLabel('Scope').selectOption('write');
    expect(await submit(dora, 'Create token')).toBe(200);
    await dora.audit();
    const token = await dora.page.locator('.token-value').textContent();
    expect(token).toMatch(/^gnp_[A-Za-z0-9]{40}$/);
    await expect.poll(() => dora.page.getByText('it is shown only this once').isVisible()).toBe(true);
    await dora.screenshot('tokens');
    const used = await me(token!);
    expect(used.status).toBe(200);
    expect(await used.json()).toMatchObject({ username: 'dora', token_scope: 'write' });
    await dora.visit('/accounts/tokens/');
    expect(await dora.page.content()).not.toContain(token!);
    expect(await dora.page.getByText(`${token!.slice(0, 8)}…`).isVisible()).toBe(true);
    // Revoking asks first, in a dialog over the list (the confirmation page's form).
    await dora.page.getByRole('button', { name: 'Revoke backup script' }).click();
    const dialog = dora.page.getByRole('dialog', { name: 'Revoke the token “backup script”?' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await me(token!).then((response) => response.status)).toBe(200);
    expect(await submit(dora, 'Revoke')).toBe(302);
    await dora.audit();
    await expect.poll(() => dora.page.getByText('You have no tokens yet.').isVisible()).toBe(true);
    expect((await me(token!)).status).toBe(401);
  });

  test('the API reference is a page of the app, readable and audited like the others', async () => {
    await dora.visit('/api/v1/docs/');
    expect(await dora.page.getByRole('heading', { level: 1 }).textContent()).toBe('API reference');
    expect(await dora.page.getByRole('link', { name: 'openapi.json' }).getAttribute('href')).toBe('/api/v1/openapi.json');
    await dora.screenshot('api-docs');
  });
});

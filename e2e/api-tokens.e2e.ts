import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { fill, register, submit } from './actions.js';
import { launchBrowser, Person } from './browser.js';

// A person makes a personal access token in the browser, a script uses it, the person revokes it.

const me = (token: string) => fetch(`${inject('baseUrl')}/api/v1/me/`, { headers: { authorization: `Bearer ${token}` } });

describe('API tokens in the browser', () => {
  let browser: Browser;
  let tess: Person;
  let token = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    tess = await Person.open(browser, 'tess');
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('tess creates a token from her account page and sees it once', async () => {
    await register(tess, 'tess');
    await tess.visit('/accounts/');
    await tess.page.getByRole('link', { name: /tokens/i }).first().click();
    await tess.page.waitForLoadState('load');
    expect(new URL(tess.page.url()).pathname).toBe('/accounts/tokens/');
    await tess.audit();

    await fill(tess, { Name: 'Phone shortcut' });
    await tess.page.getByLabel(/read and write|read-write|write/i).check();
    expect(await submit(tess, 'Create token')).toBe(200);
    await tess.audit();
    token = (await tess.page.locator('body').textContent())!.match(/gnp_[A-Za-z0-9]{40}/)![0];
    await tess.screenshot('tokens');

    const response = await me(token);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ username: 'tess', token_scope: 'write' });

    // Once: the list shows its name and a hint, never the token again.
    await tess.visit('/accounts/tokens/');
    const list = (await tess.page.locator('main').textContent())!;
    expect(list).toContain('Phone shortcut');
    expect(list).not.toContain(token);
  });

  test('the API reference reads well and links back to the tokens', async () => {
    await tess.visit('/api/v1/docs/');
    expect(await tess.page.getByRole('heading', { level: 1 }).textContent()).toBe('API reference');
    await tess.screenshot('api-docs');
  });

  test('revoking it ends what the script can do', async () => {
    await tess.visit('/accounts/tokens/');
    expect(await submit(tess, 'Revoke')).toBe(302);
    await tess.audit();
    expect((await me(token)).status).toBe(401);
  });
});

import { expect } from 'vitest';
import type { Person } from './browser.js';

export const PASSWORD = 'plum-orchard-lantern';

/** Fills a form's fields by their visible labels, the way a person would. */
export async function fill(person: Person, fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) {
    await person.page.getByLabel(label, { exact: true }).fill(value);
  }
}

/**
 * Clicks a form's button and waits for the page it leads to; returns the status of the form's
 * own response (302 after a successful post, 400 for a form shown again with errors, 200 for
 * a search).
 */
export async function submit(person: Person, button: string): Promise<number> {
  const page = person.page;
  person.forgetErrors();
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().isNavigationRequest() && r.request().frame() === page.mainFrame()),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  await page.waitForLoadState('load');
  return response.status();
}

/**
 * Ticks an item of a list the way its page does with its script: the tick is sent with fetch and
 * the row swapped in place, with no navigation. Waits until the clicked button has become its
 * opposite (`Mark “Milk” as bought` is gone).
 */
export async function tick(person: Person, button: string): Promise<void> {
  person.forgetErrors();
  const control = person.page.getByRole('button', { name: button, exact: true });
  await control.click();
  await expect.poll(() => control.count(), { timeout: 10_000 }).toBe(0);
}

export function path(person: Person): string {
  const url = new URL(person.page.url());
  return url.pathname + url.search;
}

export async function register(person: Person, username: string, password = PASSWORD): Promise<void> {
  await person.visit('/register/');
  await fill(person, { Username: username, Password: password, 'Password again': password });
  expect(await submit(person, 'Create account')).toBe(302);
  expect(path(person)).toBe('/notes/');
  await expect.poll(() => person.page.getByText(`Welcome, ${username}!`).isVisible()).toBe(true);
}

export async function logIn(person: Person, username: string, password = PASSWORD): Promise<void> {
  await person.visit('/accounts/login/');
  await fill(person, { Username: username, Password: password });
  expect(await submit(person, 'Log in')).toBe(302);
  expect(path(person)).toBe('/notes/');
}

export async function logOut(person: Person): Promise<void> {
  expect(await submit(person, 'Log out')).toBe(302);
  expect(path(person)).toBe('/accounts/login/');
  await expect.poll(() => person.page.getByText('You have been logged out.').isVisible()).toBe(true);
  await person.audit();
}

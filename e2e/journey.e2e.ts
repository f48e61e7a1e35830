import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill, logOut, path, register, submit, tick } from './actions.js';
import { launchBrowser, Person } from './browser.js';

const RECIPE = `Slow-cooked **lentil** soup for a cold evening.

## Ingredients

- 250 g red lentils
- 1 onion, _finely_ chopped
- 1 l vegetable stock

See [the original](https://example.com/lentils).`;

/** The id at the end of a path such as /notes/12/. */
function idIn(pathname: string, prefix: string): number {
  const match = new RegExp(`^${prefix}(\\d+)/$`).exec(pathname);
  expect(match, `${pathname} is a ${prefix}<pk>/ page`).not.toBeNull();
  return Number(match![1]);
}

/**
 * The journey, in order: alice files a Markdown note in a notebook with a tag, finds it,
 * starts a group with bob, shares the note and a shopping list with it, and they chat live.
 */
describe('alice and bob: notes, a group, chat and a shopping list', () => {
  let browser: Browser;
  let alice: Person;
  let bob: Person;
  let noteId: number;
  let groupId: number;

  beforeAll(async () => {
    browser = await launchBrowser();
    alice = await Person.open(browser, 'alice');
    bob = await Person.open(browser, 'bob');
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('a new account starts with notes pages that say what to do next', async () => {
    await register(alice, 'alice');
    await alice.audit();
    const empty = alice.page.locator('.empty-state');
    await expect.poll(() => empty.textContent()).toContain('No notes yet');
    expect(await empty.getByRole('link', { name: 'create your first note' }).getAttribute('href')).toBe('/notes/new/');
    await alice.screenshot('notes-empty');
    await alice.visit('/notebooks/');
    await alice.visit('/tags/');
  });

  test('alice creates a notebook and two tags, their colours shown as swatches', async () => {
    await alice.visit('/notebooks/new/');
    await fill(alice, { Title: 'Recipes', 'Description (optional)': 'Things worth cooking again', Colour: '#2e7d32' });
    expect(await submit(alice, 'Save')).toBe(302);
    idIn(new URL(alice.page.url()).pathname, '/notebooks/');
    await alice.audit();
    for (const [name, color] of [['dinner', '#c62828'], ['quick', '#1565c0']]) {
      await alice.visit('/tags/new/');
      await fill(alice, { Name: name!, Colour: color! });
      expect(await submit(alice, 'Save')).toBe(302);
    }
    expect(path(alice)).toBe('/tags/');
    await alice.audit();
    expect(await alice.page.locator('svg.swatch circle[fill="#c62828"]').count()).toBeGreaterThan(0);
    await alice.screenshot('tags');
  });

  test('alice writes a Markdown note; a form with a mistake keeps everything she typed', async () => {
    await alice.visit('/notes/new/');
    const page = alice.page;
    await fill(alice, { Text: RECIPE });
    await page.getByLabel('Notebook').selectOption({ label: 'Recipes' });
    await page.getByLabel('Priority').selectOption({ label: 'High' });
    await page.getByRole('checkbox', { name: 'dinner' }).check();
    await page.getByRole('checkbox', { name: 'Pinned (shown first)' }).check();
    expect(await submit(alice, 'Save')).toBe(400);
    await alice.audit(true);
    const title = page.getByLabel('Title', { exact: true });
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#id_title_errors').isVisible()).toBe(true);
    expect(await page.getByLabel('Text', { exact: true }).inputValue()).toBe(RECIPE);
    expect(await page.getByLabel('Notebook').locator('option:checked').textContent()).toBe('Recipes');
    expect(await page.getByLabel('Priority').locator('option:checked').textContent()).toBe('High');
    expect(await page.getByRole('checkbox', { name: 'dinner' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Pinned (shown first)' }).isChecked()).toBe(true);
    await alice.screenshot('note-form-errors');

    await fill(alice, { Title: 'Lentil soup' });
    expect(await submit(alice, 'Save')).toBe(302);
    noteId = idIn(new URL(page.url()).pathname, '/notes/');
    await alice.audit();
    const markdown = page.locator('.markdown');
    expect(await markdown.locator('h2').textContent()).toBe('Ingredients');
    expect(await markdown.locator('strong').textContent()).toBe('lentil');
    expect(await markdown.locator('li').count()).toBe(3);
    expect(await markdown.getByRole('link', { name: 'the original' }).getAttribute('href')).toBe('https://example.com/lentils');
    const badges = page.locator('.note-badges');
    for (const text of ['Pinned', 'High priority', 'Recipes', 'dinner']) expect(await badges.textContent()).toContain(text);
    await alice.screenshot('note');
  });

  test('the notes list shows title, plain excerpt, notebook, tags and badges', async () => {
    await alice.visit('/notes/new/');
    await fill(alice, { Title: 'Call the plumber', Text: 'Kitchen tap drips. Ask about *Tuesday*.' });
    await alice.page.getByRole('checkbox', { name: 'quick' }).check();
    expect(await submit(alice, 'Save')).toBe(302);
    await alice.visit('/notes/');
    const item = alice.page.locator('.note-item', { hasText: 'Lentil soup' });
    const text = (await item.textContent()) ?? '';
    for (const expected of ['Slow-cooked lentil soup', 'Pinned', 'High priority', 'Recipes', 'dinner']) expect(text).toContain(expected);
    expect(text).not.toContain('**');
    expect(await alice.page.locator('.note-item').first().textContent()).toContain('Lentil soup');
    await alice.screenshot('notes');
    await alice.screenshot('notes', { dark: true });
    await alice.visit('/notebooks/');
    await alice.screenshot('notebooks');
  });

  test('alice finds the note by searching', async () => {
    await alice.visit('/notes/');
    await alice.page.getByRole('searchbox', { name: 'Search notes' }).fill('lentils');
    expect(await submit(alice, 'Search')).toBe(200);
    expect(path(alice)).toBe('/notes/?q=lentils');
    await alice.audit();
    expect(await alice.page.locator('.note-item').count()).toBe(1);
    expect(await alice.page.locator('.note-item').textContent()).toContain('Lentil soup');
    await alice.visit('/notes/?q=pancakes');
    expect(await alice.page.locator('.empty-state').textContent()).toContain('No notes match');
  });

  test('alice creates a group and adds bob; a wrong username is explained by the field', async () => {
    await register(bob, 'bob');
    await alice.visit('/groups/');
    await alice.visit('/groups/new/');
    await fill(alice, { Name: 'Household' });
    expect(await submit(alice, 'Create group')).toBe(302);
    groupId = idIn(new URL(alice.page.url()).pathname, '/groups/');
    await alice.audit();
    await fill(alice, { Username: 'nobody-here' });
    expect(await submit(alice, 'Add member')).toBe(400);
    await alice.audit(true);
    expect(await alice.page.getByLabel('Username').getAttribute('aria-invalid')).toBe('true');
    await fill(alice, { Username: 'bob' });
    expect(await submit(alice, 'Add member')).toBe(302);
    await alice.audit();
    expect(await alice.page.locator('.member-list').textContent()).toContain('bob');
    await alice.screenshot('group');
    await alice.visit('/groups/');
    await alice.screenshot('groups');
  });

  test('alice shares the note with the group; bob can read it but not change it', async () => {
    await alice.visit(`/notes/${noteId}/edit/`);
    await alice.page.getByLabel('Share with group').selectOption({ label: 'Household' });
    expect(await submit(alice, 'Save')).toBe(302);
    // Saving an edit lands on the note itself, which names its group.
    expect(path(alice)).toBe(`/notes/${noteId}/`);
    await alice.audit();
    expect(await alice.page.locator('.note-badges').textContent()).toContain('Group: Household');
    await alice.visit('/notes/');
    expect(await alice.page.locator('.note-item', { hasText: 'Lentil soup' }).textContent()).toContain('Group: Household');

    await bob.visit('/notes/');
    const item = bob.page.locator('.note-item', { hasText: 'Lentil soup' });
    expect(await item.textContent()).toContain('alice');
    expect(await item.getByRole('link', { name: /Edit/ }).count()).toBe(0);
    await bob.visit(`/notes/${noteId}/`);
    expect(await bob.page.locator('.markdown h2').textContent()).toBe('Ingredients');
    expect(await bob.page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await bob.page.getByRole('button', { name: /Edit|Delete|Pin/ }).count()).toBe(0);
    await bob.screenshot('note-as-member');
    await bob.visit(`/notes/${noteId}/edit/`, 404);
    await bob.visit(`/notes/${noteId}/delete/`, 404);
  });

  test('alice and bob chat live in the group, each in a browser of their own', async () => {
    const chat = `/groups/${groupId}/chat/`;
    await alice.visit(chat);
    await bob.visit(chat);
    for (const person of [alice, bob]) {
      await person.page.locator('#chat-status[data-state="online"]').waitFor();
    }
    await alice.page.getByLabel('Message', { exact: true }).fill('Soup tonight? I have the recipe.');
    await alice.page.getByLabel('Message', { exact: true }).press('Enter');
    const received = bob.page.locator('.chat-message', { hasText: 'Soup tonight?' });
    await received.waitFor();
    expect(await received.locator('.chat-author').textContent()).toBe('alice');
    const own = alice.page.locator('.chat-message.own', { hasText: 'Soup tonight?' });
    await own.waitFor();
    expect(await alice.page.getByLabel('Message', { exact: true }).inputValue()).toBe('');

    await bob.page.getByLabel('Message', { exact: true }).fill('Yes please! I will bring bread.');
    await bob.page.getByLabel('Message', { exact: true }).press('Enter');
    await alice.page.locator('.chat-message:not(.own)', { hasText: 'bring bread' }).waitFor();
    await bob.page.locator('.chat-message.own', { hasText: 'bring bread' }).waitFor();

    // A message the server refuses (here: over 2,000 characters, set from script past the
    // textarea's maxlength) comes back into the box with the reason, instead of being lost.
    const tooLong = `${'A very long thought. '.repeat(100)}end`;
    const box = bob.page.getByLabel('Message', { exact: true });
    await box.evaluate((element, value) => {
      (element as HTMLTextAreaElement).value = value;
    }, tooLong);
    await box.press('Enter');
    await bob.page.locator('#chat-error', { hasText: 'Your message is back in the box.' }).waitFor();
    expect(await box.inputValue()).toBe(tooLong);
    await box.fill('');
    await alice.audit();
    await bob.audit();
    await alice.screenshot('chat');
  });

  test('the chat opens at the newest message and loads older ones on scrolling up', async () => {
    const input = alice.page.getByLabel('Message', { exact: true });
    const own = alice.page.locator('.chat-message.own');
    const before = await own.count();
    for (let i = 1; i <= 55; i += 1) {
      // At most 8 a second: under the chat's rate limit (a burst of 20, then 10 a second).
      const paced = new Promise((resolve) => setTimeout(resolve, 125));
      await input.fill(`Idea number ${i} for the weekend`);
      await input.press('Enter');
      await expect.poll(() => own.count()).toBe(before + i);
      await paced;
    }
    await bob.visit(`/groups/${groupId}/chat/`);
    const messages = bob.page.locator('.chat-message');
    await bob.page.locator('#chat-status[data-state="online"]').waitFor();
    expect(await messages.count()).toBe(50);
    const scroller = bob.page.locator('#chat-scroll');
    const atBottom = () => scroller.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight < 2);
    await expect.poll(atBottom).toBe(true);
    expect(await messages.last().textContent()).toContain('Idea number 55');
    await scroller.evaluate((element) => {
      element.scrollTop = 0;
    });
    await expect.poll(() => messages.count()).toBe(57);
    expect(await messages.first().textContent()).toContain('Soup tonight?');
    await bob.page.getByText('This is the beginning of the conversation.').waitFor();
    await bob.screenshot('chat-history');
  });

  test('alice keeps a shopping list for the group; bob sees it with its total', async () => {
    await alice.visit('/shopping/new/');
    await fill(alice, { Title: 'Weekend market', 'Store (optional)': 'Farmers market' });
    await alice.page.getByLabel('Group (optional)').selectOption({ label: 'Household' });
    expect(await submit(alice, 'Create list')).toBe(302);
    const listPath = new URL(alice.page.url()).pathname;
    idIn(listPath, '/shopping/');
    await alice.audit();
    const items: [string, string, string, string][] = [
      ['Red lentils', '2', 'pack', '1.25'],
      ['Sourdough bread', '1', '', '3.40'],
      ['Onions', '1.5', 'kg', '2.00'],
    ];
    for (const [name, quantity, unit, price] of items) {
      await fill(alice, { 'What to buy': name, Quantity: quantity, 'Unit (optional)': unit, 'Price per unit (optional)': price });
      expect(await submit(alice, 'Add item')).toBe(302);
    }
    await alice.audit();
    const total = alice.page.locator('.shopping-total');
    expect(await total.textContent()).toContain('8.90');
    await tick(alice, 'Mark “Sourdough bread” as bought');
    await expect.poll(() => total.textContent()).toContain('5.50');
    await alice.audit();
    await alice.screenshot('shopping-list');

    await bob.visit('/shopping/');
    expect(await bob.page.getByRole('link', { name: 'Weekend market' }).count()).toBe(1);
    await bob.visit(listPath);
    expect(await bob.page.locator('.shopping-total').textContent()).toContain('5.50');
    expect(await bob.page.getByRole('button', { name: 'Add item' }).count()).toBe(0);
    await bob.screenshot('shopping-as-member');
    await bob.visit(`${listPath}edit/`, 404);
  });

  test('a to-do list, and delete pages that ask first', async () => {
    await alice.visit('/todo/new/');
    await fill(alice, { Title: 'Before the weekend' });
    expect(await submit(alice, 'Create list')).toBe(302);
    for (const text of ['Water the plants', 'Book the train']) {
      await fill(alice, { 'What needs doing': text });
      expect(await submit(alice, 'Add item')).toBe(302);
    }
    await tick(alice, 'Mark “Water the plants” as done');
    await alice.audit();
    await alice.screenshot('todo-list');
    await alice.visit('/todo/');
    await alice.visit('/shopping/');
    await alice.visit(`/notes/${noteId}/delete/`);
    expect(await alice.page.getByRole('heading', { level: 1 }).textContent()).toContain('Delete');
    await alice.visit(`/notes/${noteId}/`);
  });

  test('both log out', async () => {
    await logOut(alice);
    await logOut(bob);
  });
});

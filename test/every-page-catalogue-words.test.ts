import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../src/db/schema.js';
import { encodeUid, makeResetToken } from '../src/features/accounts/reset-tokens.js';
import { ownName } from '../src/features/accounts/account-views.js';
import { CURRENCIES } from '../src/features/accounts/currencies.js';
import { LANGUAGES } from '../src/platform/i18n/index.js';
import { TIME_ZONES } from '../src/platform/time-zones.js';
import { addShoppingItem, addTodoItem, buildTestApp, createGroup, createNote, createNotebook, createReminder, createShoppingList, createTag, createTodoList, createToken, createUser, TEST_SECRET, type TestApp, TestBrowser, unwrappedText, useMarkedMessages } from './index.js';

// No text a person reads lives outside the catalogue. Every GET page the app has is
// rendered with each message wrapped in ⟦ ⟧ (test/language-markers.ts), as an administrator who
// owns one of everything, and any readable text outside the markers fails. The pages are found
// from the app's own routes, so a page added later without an entry here fails too. What people
// write is wrapped by the test (a note titled "⟦Soup⟧"), or named: usernames and zone names.

let t: TestApp;
let anna: User;
let bohdan: User;
let browser: TestBrowser;
const paths = new Map<string, string | null>();

/** Every GET route of the app, as Fastify prints its tree. */
function getRoutes(tree: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]*)\)/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    if (match[3]!.split(', ').includes('GET')) routes.push(stack.join('').replace(/\/\//g, '/'));
  }
  return routes;
}

beforeAll(async () => {
  useMarkedMessages();
  t = await buildTestApp();
  anna = await createUser(t.db, { username: 'anna', email: 'anna@example.com' });
  bohdan = await createUser(t.db, { username: 'bohdan' });
  const reader = await createUser(t.db, { username: 'chrystia', email: 'chrystia@example.com' });
  await t.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', anna.id).execute();
  const group = await createGroup(t.db, anna, [bohdan], '⟦Family⟧');
  const joined = await createGroup(t.db, bohdan, [anna], '⟦Neighbours⟧');
  const notebook = await createNotebook(t.db, anna, { title: '⟦Recipes⟧', description: '⟦Soups⟧' });
  const tag = await createTag(t.db, anna, { name: '⟦soup⟧' });
  const note = await createNote(t.db, anna, { title: '⟦Borscht⟧', content: '⟦Beets and dill.⟧', notebook_id: notebook.id, group_id: group.id, tags: [tag] });
  const reminder = await createReminder(t.db, note, { message: '⟦Buy beets⟧' });
  const todo = await createTodoList(t.db, anna, { title: '⟦Chores⟧', sharedWith: [bohdan] });
  const task = await addTodoItem(t.db, todo, { text: '⟦Sweep⟧' });
  const shopping = await createShoppingList(t.db, anna, { title: '⟦Market⟧', store_name: '⟦Bazaar⟧', group });
  const item = await addShoppingItem(t.db, shopping, { name: '⟦Beets⟧', unit: '⟦kg⟧', estimated_price_cents: 869 });
  await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: bohdan.id, content: '⟦Dinner at six?⟧', created_at: Date.now() }).execute();
  await createToken(t.db, anna, 'read', '⟦laptop⟧');
  const token = await t.db.selectFrom('access_tokens').select('id').where('user_id', '=', anna.id).executeTakeFirstOrThrow();
  const { password, last_login, email } = await t.db.selectFrom('users').select(['password', 'last_login', 'email']).where('id', '=', reader.id).executeTakeFirstOrThrow();
  const reset = `/accounts/reset/${encodeUid(reader.id)}/${makeResetToken(TEST_SECRET, { id: reader.id, password, last_login, email })}/`;
  browser = new TestBrowser(t.app);
  await browser.login('anna');

  const pages: Record<string, string | null> = {
    '/': '/',
    '/*': null, // any other path: the 404 page, below
    '/healthz': null, // JSON for probes
    '/static/*': null,
    '/accounts/login/2fa/': null, // only after a password was checked: the accounts feature's language test renders it
    '/groups/:pk/chat/cards/': null, // a chat link's preview, JSON
    '/groups/:pk/leave/': `/groups/${joined.id}/leave/`, // an owner does not leave: a group anna only joined
  };
  for (const action of ['deactivate', 'disable-2fa', 'activate', 'send-reset']) pages[`/admin/users/:pk/${action}/`] = null; // POST only (GET: 405)
  const ids: Record<string, string> = {
    '/notes/:pk/': `/notes/${note.id}/`,
    '/notebooks/:pk/': `/notebooks/${notebook.id}/`,
    '/tags/:pk/': `/tags/${tag.id}/`,
    '/todo/:pk/': `/todo/${todo.id}/`,
    '/todo/items/:pk/': `/todo/items/${task.id}/`,
    '/shopping/:pk/': `/shopping/${shopping.id}/`,
    '/shopping/items/:pk/': `/shopping/items/${item.id}/`,
    '/groups/:pk/members/:user_pk/': `/groups/${group.id}/members/${bohdan.id}/`,
    '/groups/:pk/': `/groups/${group.id}/`,
    '/reminders/:pk/': `/reminders/${reminder.id}/`,
    '/admin/users/:pk/': `/admin/users/${bohdan.id}/`,
    '/accounts/tokens/:pk/': `/accounts/tokens/${token.id}/`,
  };
  for (const route of getRoutes(t.app.printRoutes({ commonPrefix: false }))) {
    if (route in pages) {
      paths.set(route, pages[route]!);
      continue;
    }
    // The API answers JSON, but for its documentation page; a socket is no page.
    if ((route.startsWith('/api/') && route.includes(':')) || route.startsWith('/ws/') || route.endsWith('.json')) continue;
    if (route.startsWith('/accounts/reset/:uidb64/')) {
      paths.set(route, reset);
      continue;
    }
    const prefix = Object.keys(ids).find((pattern) => route.startsWith(pattern));
    paths.set(route, prefix ? ids[prefix]! + route.slice(prefix.length) : route.includes(':') ? 'NO ID FOR THIS ROUTE' : route);
  }
});

afterAll(() => t?.close());

describe('every page, with each catalogue message wrapped', () => {
  it('finds the pages of every feature', () => {
    expect(paths.size).toBeGreaterThan(40);
    expect([...paths].filter(([, path]) => path === 'NO ID FOR THIS ROUTE').map(([route]) => route)).toEqual([]);
  });

  it('shows no text outside the catalogue on any page', async () => {
    // What people wrote, and names Intl gives in the page's language (zones, currencies, languages).
    const currencyNames = new Intl.DisplayNames('en', { type: 'currency' });
    const userContent = ['anna', 'bohdan', 'chrystia', 'anna@example.com', 'chrystia@example.com', 'lightMyRequest', ...TIME_ZONES, ...CURRENCIES.map((code) => `${code} – ${currencyNames.of(code)}`), ...LANGUAGES.map(ownName)];
    const failures: { path: string; status: number }[] = [];
    const unwrapped: { path: string; text: string[] }[] = [];
    for (const path of [...paths.values(), '/no-such-page/']) {
      if (path === null) continue;
      let response = await browser.get(path);
      if (response.statusCode === 302 && response.headers.location?.startsWith('/')) response = await browser.get(response.headers.location);
      if (response.statusCode !== 200 && path !== '/no-such-page/') failures.push({ path, status: response.statusCode });
      if (!String(response.headers['content-type']).startsWith('text/html')) continue;
      const text = unwrappedText(response.body, userContent);
      if (text.length > 0) unwrapped.push({ path, text });
    }
    expect(failures).toEqual([]);
    expect(unwrapped).toEqual([]);
  });
});

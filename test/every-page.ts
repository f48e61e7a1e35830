import type { Response as InjectResponse } from 'light-my-request';
import type { User } from '../src/db/schema.js';
import { encodeUid, makeResetToken } from '../src/features/accounts/reset-tokens.js';
import { createToken } from './api.js';
import { buildTestApp, createGroup, createUser, TEST_SECRET, type TestApp, TestBrowser } from './helpers.js';
import { addShoppingItem, addTodoItem, createShoppingList, createTodoList } from './lists.js';
import { createNote, createNotebook, createReminder, createTag } from './notes-factories.js';

// Every GET page the app has, found from its own routes (a page added later without an entry here
// is reported), as an administrator who owns one of everything. The tests that read every page
// (every-page-*.test.ts) name the objects in the language they check.

/** What the user writes on every page: each test writes it so that it can tell it from the interface's words. */
export interface UserWords {
  group: string;
  joinedGroup: string;
  notebook: string;
  notebookDescription: string;
  tag: string;
  note: string;
  noteContent: string;
  reminder: string;
  todo: string;
  task: string;
  shopping: string;
  store: string;
  item: string;
  unit: string;
  chat: string;
  token: string;
}

export interface EveryPage {
  t: TestApp;
  /** Logged in as anna, the administrator who owns one of everything. */
  browser: TestBrowser;
  /** Each GET route with the path that shows it; null for a route that is no page. */
  paths: Map<string, string | null>;
}

/** The usernames and addresses the pages show. */
export const EVERY_PAGE_PEOPLE = ['anna', 'bohdan', 'chrystia', 'anna@example.com', 'chrystia@example.com'];

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

/** The app with one of everything, named in `words`; anna's pages speak `language` ('' follows the browser). */
/** The page of a note its reader deleted: answered 410, not 200. */
export const DELETED_NOTE = '/notes/:pk/ (deleted)';

export async function everyPage(words: UserWords, language = ''): Promise<EveryPage> {
  const t = await buildTestApp();
  const anna: User = await createUser(t.db, { username: 'anna', email: 'anna@example.com' });
  const bohdan = await createUser(t.db, { username: 'bohdan' });
  const reader = await createUser(t.db, { username: 'chrystia', email: 'chrystia@example.com' });
  await t.db.updateTable('users').set({ is_admin: 1, language }).where('id', '=', anna.id).execute();
  const group = await createGroup(t.db, anna, [bohdan], words.group);
  const joined = await createGroup(t.db, bohdan, [anna], words.joinedGroup);
  const notebook = await createNotebook(t.db, anna, { title: words.notebook, description: words.notebookDescription });
  const tag = await createTag(t.db, anna, { name: words.tag });
  const note = await createNote(t.db, anna, { title: words.note, content: words.noteContent, notebook_id: notebook.id, group_id: group.id, tags: [tag] });
  const reminder = await createReminder(t.db, note, { message: words.reminder });
  const todo = await createTodoList(t.db, anna, { title: words.todo, sharedWith: [bohdan] });
  // Given to anna, so that /todo/ lists it under the list's name.
  const task = await addTodoItem(t.db, todo, { text: words.task, assignee: anna });
  const shopping = await createShoppingList(t.db, anna, { title: words.shopping, store_name: words.store, group });
  const item = await addShoppingItem(t.db, shopping, { name: words.item, unit: words.unit, estimated_price_cents: 869 });
  await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: bohdan.id, content: words.chat, created_at: Date.now() }).execute();
  // anna's own, just sent: she may edit and delete it (its pages).
  const ownMessage = await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: anna.id, content: words.chat, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
  await createToken(t.db, anna, 'read', words.token);
  const token = await t.db.selectFrom('access_tokens').select('id').where('user_id', '=', anna.id).executeTakeFirstOrThrow();
  const { password, last_login, email } = await t.db.selectFrom('users').select(['password', 'last_login', 'email']).where('id', '=', reader.id).executeTakeFirstOrThrow();
  const reset = `/accounts/reset/${encodeUid(reader.id)}/${makeResetToken(TEST_SECRET, { id: reader.id, password, last_login, email })}/`;
  const browser = new TestBrowser(t.app);
  await browser.login('anna');

  const pages: Record<string, string | null> = {
    '/': '/',
    '/*': null, // any other path: the 404 page, in getEveryPage
    '/healthz': null, // JSON for probes
    '/static/*': null,
    '/accounts/login/2fa/': null, // only after a password was checked: the accounts feature's language test renders it
    '/groups/:pk/chat/cards/': null, // a chat link's preview, JSON
    '/notifications/:pk/open/': null, // follows a notification to where it points: a redirect
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
    '/groups/:pk/chat/messages/:messageId/': `/groups/${group.id}/chat/messages/${ownMessage.id}/`,
    '/groups/:pk/': `/groups/${group.id}/`,
    '/reminders/:pk/': `/reminders/${reminder.id}/`,
    '/admin/users/:pk/': `/admin/users/${bohdan.id}/`,
    '/accounts/tokens/:pk/': `/accounts/tokens/${token.id}/`,
  };
  const paths = new Map<string, string | null>();
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
  // The notes list filtered by a notebook and by a tag: each filter a chip naming it.
  paths.set('/notes/?notebook=', `/notes/?notebook=${notebook.id}`);
  paths.set('/notes/?tag=', `/notes/?tag=${tag.id}`);
  // A note anna deleted: its page says so (410).
  const deleted = await createNote(t.db, anna, { title: words.note });
  if ((await browser.post(`/notes/${deleted.id}/delete/`)).statusCode !== 302) throw new Error('the note was not deleted');
  paths.set(DELETED_NOTE, `/notes/${deleted.id}/`);
  return { t, browser, paths };
}

/** The pages of `paths`, and a missing one (the 404 page), as the browser shows them after a redirect. */
export async function getEveryPage({ browser, paths }: EveryPage): Promise<{ path: string; response: InjectResponse }[]> {
  const responses: { path: string; response: InjectResponse }[] = [];
  for (const path of [...paths.values(), '/no-such-page/']) {
    if (path === null) continue;
    let response = await browser.get(path);
    if (response.statusCode === 302 && response.headers.location?.startsWith('/')) response = await browser.get(response.headers.location);
    responses.push({ path, response });
  }
  return responses;
}

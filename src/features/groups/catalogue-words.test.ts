import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../db/schema.js';
import { recordActivity } from './activity.js';
import { ApiClient, buildTestApp, createGroup, createShoppingList, expectAllWrapped, loggedIn, type TestApp, type TestBrowser, useMarkedMessages } from '../../../test/index.js';

// Groups, chat and notifications: every page rendered with the catalogue's
// messages wrapped in ⟦ ⟧ has no readable text outside them. User content is wrapped by the test
// (group names, note and list titles, chat messages) or named: the usernames, and the time zone,
// an IANA id the <time> elements carry as their title.

const ZONE = 'Europe/Kyiv';

/**
 * The page's dates and times are Intl's words in the page's locale, not the catalogue's (the
 * Ukrainian tests check them): the text and tooltip of each <time> count as content.
 */
function timesOf(html: string): string[] {
  return [...html.matchAll(/<time\b([^>]*)>([^<]*)<\/time>/g)].flatMap((match) => [/\btitle="([^"]*)"/.exec(match[1]!)?.[1] ?? '', match[2]!]).filter(Boolean);
}

function expectOnlyCatalogue(path: string, html: string, content: readonly string[] = userContent): void {
  expectAllWrapped(path, html, [...content, ...timesOf(html)]);
}
let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let member: { user: User; browser: TestBrowser };
let leaver: { user: User; browser: TestBrowser };
let group: Group;
let userContent: string[];

async function page(browser: TestBrowser, path: string, status = 200): Promise<string> {
  const response = await browser.get(path);
  expect(response.statusCode, path).toBe(status);
  return response.body;
}

beforeAll(async () => {
  useMarkedMessages();
  t = await buildTestApp();
  owner = await loggedIn(t, { username: 'olena' });
  member = await loggedIn(t, { username: 'marko' });
  leaver = await loggedIn(t, { username: 'lesia' });
  for (const { user } of [owner, member, leaver]) await t.db.updateTable('users').set({ timezone: ZONE }).where('id', '=', user.id).execute();
  userContent = ['olena', 'marko', 'lesia', ZONE];
  group = await createGroup(t.db, owner.user, [leaver.user], '⟦Flat three⟧');

  // Activity of every kind, and a chat with history.
  expect((await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: 'marko' })).statusCode).toBe(302);
  expect((await owner.browser.post('/notes/new/', { title: '⟦Soup⟧', content: '⟦Onions⟧', group: String(group.id) })).statusCode).toBe(302);
  await owner.browser.get('/notes/'); // Shows (and so ends) the notes' own flash message.
  const list = await createShoppingList(t.db, owner.user, { title: '⟦Market⟧', group });
  await recordActivity(t.db, { groupId: group.id, kind: 'list.added', actorId: owner.user.id, object: { kind: 'shopping', id: list.id } });
  await recordActivity(t.db, { groupId: group.id, kind: 'list.changed', actorId: owner.user.id, object: { kind: 'shopping', id: list.id } });
  expect((await owner.browser.post(`/groups/${group.id}/edit/`, { name: '⟦Flat 3⟧' })).statusCode).toBe(302);
  // What the leaver shared with the group goes with them: a line says how many.
  await createShoppingList(t.db, leaver.user, { title: '⟦Lesia shop⟧', group });
  expect((await leaver.browser.post(`/groups/${group.id}/leave/`)).statusCode).toBe(302);
  await t.db.insertInto('group_members').values({ group_id: group.id, user_id: leaver.user.id, joined_at: Date.now() }).execute();
  expect((await owner.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: String(leaver.user.id) })).statusCode).toBe(302);
  const api = new ApiClient(t.app, { browser: member.browser });
  for (const content of ['⟦Hello⟧', '⟦See /notes/1/⟧']) expect((await api.post(`/api/v1/groups/${group.id}/messages/`, { content })).statusCode).toBe(201);
  const mention = await new ApiClient(t.app, { browser: owner.browser }).post(`/api/v1/groups/${group.id}/messages/`, { content: '⟦@marko, look⟧' });
  expect(mention.statusCode).toBe(201);
});
afterAll(() => t.close());

describe('every page of groups, chat and notifications speaks only from the catalogue', () => {
  it('the groups list, the new group form and the group page, as owner and as member', async () => {
    for (const path of ['/groups/', '/groups/new/', `/groups/${group.id}/`, `/groups/${group.id}/edit/`, `/groups/${group.id}/delete/`]) {
      expectOnlyCatalogue(path, await page(owner.browser, path));
    }
    for (const path of ['/groups/', `/groups/${group.id}/`]) expectOnlyCatalogue(`${path} (member)`, await page(member.browser, path));
    // The activity shows every kind of event.
    expect(await page(member.browser, `/groups/${group.id}/`)).toMatch(/renamed the group[\s\S]*shared the note ⟦Soup⟧/);
    expect(await page(member.browser, `/groups/${group.id}/`)).toContain('lesia no longer shares a shopping list with the group');
  });

  it('a group list with no group', async () => {
    const loner = await loggedIn(t, { username: 'solo' });
    expectOnlyCatalogue('/groups/ (empty)', await page(loner.browser, '/groups/'), ['solo']);
  });

  it('the confirmation pages: leave, and remove a member', async () => {
    expectOnlyCatalogue('leave', await page(member.browser, `/groups/${group.id}/leave/`));
    expectOnlyCatalogue('remove', await page(owner.browser, `/groups/${group.id}/members/${member.user.id}/remove/`));
  });

  it('forms shown again with their errors', async () => {
    const unknown = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: 'nobody' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('There is no user named “nobody”.');
    expectOnlyCatalogue('add unknown member', unknown.body, [...userContent, 'nobody']);
    const again = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: 'marko' });
    expectOnlyCatalogue('add a member twice', again.body);
    for (const [path, name] of [['/groups/new/', ''], [`/groups/${group.id}/edit/`, 'x'.repeat(151)]] as const) {
      const response = await owner.browser.post(path, { name });
      expect(response.statusCode, path).toBe(400);
      expectOnlyCatalogue(`${path} with errors`, response.body, [...userContent, name]);
    }
    const taken = await owner.browser.post('/groups/new/', { name: '⟦Flat 3⟧' });
    expectOnlyCatalogue('a name taken', taken.body);
  });

  it('a page showing a flash message after an action', async () => {
    const created = await owner.browser.post('/groups/new/', { name: '⟦Attic⟧' });
    expect(created.statusCode).toBe(302);
    const body = await page(owner.browser, created.headers.location!);
    expect(body).toContain('Group “⟦Attic⟧” created.');
    expectOnlyCatalogue('flash', body);
  });

  it('the chat page with history', async () => {
    const body = await page(owner.browser, `/groups/${group.id}/chat/`);
    expect(body).toContain('⟦Hello⟧');
    // The mention is marked (<mark>), which splits the message's own text around it.
    expect(body).toContain('⟦<mark class="mention">@marko</mark>, look⟧');
    expectOnlyCatalogue('chat', body, [...userContent, '⟦', ', look⟧']);
  });

  it('the notifications page', async () => {
    // marko was added to the group and mentioned in its chat: both in the catalogue's words. Other
    // kinds' texts are shown as stored when sent (a shared list's, here the test's own).
    await t.db.insertInto('notifications').values({ user_id: member.user.id, kind: 'list.shared', text: '⟦A list for you⟧', link: '', created_at: Date.now(), read_at: null }).execute();
    const body = await page(member.browser, '/notifications/');
    expect(body).toContain('⟦olena added you to the group ⟦Flat three⟧⟧');
    expect(body).toContain('⟦olena mentioned you in ⟦Flat 3⟧⟧');
    expectOnlyCatalogue('notifications', body);
    expectOnlyCatalogue('no notifications', await page(leaver.browser, '/notifications/'));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../db/schema.js';
import { buildTestApp, createGroup, createUser, loggedIn, QueryCounter, type TestApp } from '../../../../test/index.js';

// The navigation's Chat leads to /chat/: the chat of one's only group, else the list of one's
// group chats with their unread counts, the latest first, else how to get into a group.

let t: TestApp;
const counter = new QueryCounter();
beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' }, counter.observe);
});
afterAll(() => t.close());

let clock = Date.now();
async function say(author: User, groupId: number, content: string): Promise<void> {
  clock += 1000;
  await t.db.insertInto('chat_messages').values({ group_id: groupId, author_id: author.id, content, created_at: clock }).execute();
}

/** The groups /chat/ lists, in order, each with its "N new" (or '0'). */
function listed(body: string): [string, string][] {
  return [...body.matchAll(/<li><a href="\/groups\/\d+\/chat\/" class="chat-list-name">([^<]+)<\/a>(?:<span class="badge badge-group unread-count">([^ ]+) new)?/g)].map((match) => [match[1]!, match[2] ?? '0']);
}

describe('/chat/', () => {
  it('with one group goes straight to its chat', async () => {
    const { user, browser } = await loggedIn(t);
    const group = await createGroup(t.db, user);
    const response = await browser.get('/chat/');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/groups/${group.id}/chat/`);
  });

  it('with several lists them, the latest message first, with their unread counts, in one query', async () => {
    const { user, browser } = await loggedIn(t);
    const friend = await createUser(t.db);
    const quiet = await createGroup(t.db, friend, [user], 'Quiet one');
    const busy = await createGroup(t.db, friend, [user], 'Busy one');
    const older = await createGroup(t.db, user, [friend], 'Older talk');
    await createGroup(t.db, friend, [], 'Not mine');
    await say(friend, older.id, 'first');
    await say(friend, older.id, 'second');
    await say(user, busy.id, 'my own is not unread');
    await say(friend, busy.id, 'newest');
    expect(quiet.id).toBeLessThan(busy.id);

    const queries = await counter.forPage(browser, '/chat/', 200);
    const page = await browser.get('/chat/');
    expect(listed(page.body)).toEqual([
      ['Busy one', '1'],
      ['Older talk', '2'],
      ['Quiet one', '0'],
    ]);
    expect(page.body).toContain('<span class="visually-hidden"> messages</span>');
    expect(page.body).toContain('No messages yet');
    // The session's statement and the list's.
    expect(queries).toBe(2);
  });

  it('with none says how to create a group or be added to one', async () => {
    const { user, browser } = await loggedIn(t);
    const page = await browser.get('/chat/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<a href="/groups/new/">Create a group</a>');
    expect(page.body).toContain(`ask a group’s owner to add you: your username is ${user.username}.`);
    expect(listed(page.body)).toEqual([]);
  });

  it('asks for a login first', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/chat/' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^\/accounts\/login\//);
  });
});

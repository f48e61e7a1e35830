import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../db/schema.js';
import { ApiClient, buildTestApp, type ChatClient, connectChat, createGroup, listen, loggedIn, QueryCounter, type TestApp, type TestBrowser } from '../../../../test/index.js';

// Unread chat messages: per group on /groups/ and in every page's navigation, read with the
// session's own statement; someone else's messages above the reader's mark, opening the chat reads them.

let t: TestApp;
let address: string;
const counter = new QueryCounter();
beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' }, counter.observe);
  address = await listen(t.app);
});
afterAll(() => t.close());

type Member = { user: User; browser: TestBrowser };

/** Posts as a script of the member's session would (the API's chat post, ChatService.post like the socket's). */
async function post(author: Member, groupId: number, content: string): Promise<void> {
  const sent = await new ApiClient(t.app, { browser: author.browser }).post(`/api/v1/groups/${groupId}/messages/`, { content });
  expect(sent.statusCode).toBe(201);
}

/** The count beside "Chat" in the navigation of a page, or 0 when none shows. */
async function headerCount(member: Member): Promise<string> {
  const page = await member.browser.get('/notes/');
  const match = /Chat<span class="nav-count" aria-hidden="true">([^<]+)<\/span>/.exec(page.body);
  return match ? match[1]! : '0';
}

/** The "N new" of each group on /groups/, by group id. */
async function groupCounts(member: Member): Promise<Record<number, string>> {
  const page = await member.browser.get('/groups/');
  const counts: Record<number, string> = {};
  for (const match of page.body.matchAll(/href="\/groups\/(\d+)\/chat\/">Open chat.*?<\/a>(?:<span class="badge badge-group unread-count">([^ ]+) new)?/g)) {
    counts[Number(match[1])] = match[2] ?? '0';
  }
  return counts;
}

async function eventually(check: () => Promise<void>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

function openChat(member: Member, groupId: number): Promise<ChatClient> {
  return connectChat(address, `/ws/groups/${groupId}/chat/`, { sessionKey: member.browser.cookies.get('sessionid') });
}

async function trio() {
  const [alice, bob, carol] = [await loggedIn(t), await loggedIn(t), await loggedIn(t)];
  const group = await createGroup(t.db, alice.user, [bob.user, carol.user]);
  return { alice, bob, carol, group };
}

describe('unread chat messages', () => {
  it('count someone else’s messages, per group and in the header, and not one’s own', async () => {
    const { alice, bob, carol, group } = await trio();
    const other = await createGroup(t.db, carol.user, [alice.user]);
    await post(bob, group.id, 'one');
    await post(bob, group.id, 'two');
    await post(carol, other.id, 'elsewhere');
    expect(await groupCounts(alice)).toEqual({ [group.id]: '2', [other.id]: '1' });
    expect(await headerCount(alice)).toBe('3');
    // Bob's own two do not count for him; Carol's one in the group does.
    await post(carol, group.id, 'three');
    expect(await groupCounts(bob)).toEqual({ [group.id]: '1' });
    expect(await headerCount(bob)).toBe('1');
    expect(await headerCount(carol)).toBe('2');
    const page = await alice.browser.get('/notes/');
    expect(page.body).toContain('<span class="visually-hidden">, 4 unread chat messages</span>');
  });

  it('opening the chat reads it: the counts go to 0 once the history is sent', async () => {
    const { alice, bob, group } = await trio();
    await post(bob, group.id, 'hello');
    expect(await headerCount(alice)).toBe('1');
    const client = await openChat(alice, group.id);
    await client.waitFor((frame) => frame.type === 'history');
    await eventually(async () => expect(await headerCount(alice)).toBe('0'));
    expect((await groupCounts(alice))[group.id]).toBe('0');
    client.close();
  });

  it('the chat page read without JavaScript reads the messages it shows', async () => {
    const { alice, bob, group } = await trio();
    await post(bob, group.id, 'plain page');
    expect((await groupCounts(alice))[group.id]).toBe('1');
    expect((await alice.browser.get(`/groups/${group.id}/chat/`)).statusCode).toBe(200);
    expect((await groupCounts(alice))[group.id]).toBe('0');
  });

  it('messages delivered to an open chat are read: its mark moves when it closes', async () => {
    const { alice, bob, carol, group } = await trio();
    const client = await openChat(alice, group.id);
    for (const content of ['a', 'b', 'c']) await post(bob, group.id, content);
    await client.waitFor((frame) => frame.type === 'message', 3);
    client.close();
    await client.closed;
    await eventually(async () => expect((await groupCounts(alice))[group.id]).toBe('0'));
    // Someone who was not connected still has them unread.
    expect((await groupCounts(carol))[group.id]).toBe('3');
  });

  it('stops counting at 99+', async () => {
    const { alice, bob, group } = await trio();
    const now = Date.now();
    await t.db.insertInto('chat_messages').values(Array.from({ length: 105 }, (_, i) => ({ group_id: group.id, author_id: bob.user.id, content: `m${i}`, created_at: now + i }))).execute();
    expect(await headerCount(alice)).toBe('99+');
    expect((await groupCounts(alice))[group.id]).toBe('99+');
  });

  it('adds no query to a page: /groups/ stays at two, a notes page as without any message', async () => {
    const { alice, bob, group } = await trio();
    await alice.browser.get('/groups/');
    const before = await counter.forPage(alice.browser, '/notes/', 200);
    await post(bob, group.id, 'unread');
    expect(await counter.forPage(alice.browser, '/groups/', 200, ['1 new'])).toBe(2);
    expect(await counter.forPage(alice.browser, '/notes/', 200, ['nav-count'])).toBe(before);
  });

  it('read marks go with the group when it is deleted', async () => {
    const { alice, bob, group } = await trio();
    await post(bob, group.id, 'x');
    const client = await openChat(alice, group.id);
    await client.waitFor((frame) => frame.type === 'history');
    await eventually(async () => expect(await t.db.selectFrom('chat_reads').select('user_id').where('group_id', '=', group.id).execute()).toHaveLength(1));
    client.close();
    await t.db.deleteFrom('groups').where('id', '=', group.id).execute();
    expect(await t.db.selectFrom('chat_reads').select('user_id').where('group_id', '=', group.id).execute()).toEqual([]);
  });
});


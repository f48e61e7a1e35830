import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { ApiClient, buildTestApp, type ChatClient, connectChat, createGroup, listen, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

// Every page's one socket (/ws/notifications/) carries the navigation's counts beside the bell's:
// a chat message raises the Chat count of the members' open pages, and reading the chat (its page,
// or an open chat in sight) drops it, with the bell for the mentions read with it, on every tab.
// Over real sockets on a real listening server.

const BELL_PATH = '/ws/notifications/';
let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' });
  address = await listen(t.app);
});
afterAll(() => t.close());

type Member = { user: User; browser: TestBrowser; sessionKey: string };

async function member(): Promise<Member> {
  const { user, browser } = await loggedIn(t);
  return { user, browser, sessionKey: browser.cookies.get('sessionid')! };
}

async function post(author: Member, groupId: number, content: string): Promise<void> {
  expect((await new ApiClient(t.app, { browser: author.browser }).post(`/api/v1/groups/${groupId}/messages/`, { content })).statusCode).toBe(201);
}

/** A page's socket, once it has been told its counts on opening. */
async function openPage(who: Member): Promise<ChatClient> {
  const page = await connectChat(address, BELL_PATH, { sessionKey: who.sessionKey });
  await page.waitFor((frame) => frame.type === 'counts');
  await page.waitFor((frame) => frame.type === 'unread');
  return page;
}

const chatCounts = (page: ChatClient) => page.frames.filter((frame) => frame.type === 'counts').map((frame) => (frame.counts as Record<string, number>)['/chat/']);
const bellCounts = (page: ChatClient) => page.frames.filter((frame) => frame.type === 'unread').map((frame) => frame.count);

/** Waits until the page's latest Chat count is `count`. */
const chatCountIs = (page: ChatClient, count: number) => page.waitFor(() => chatCounts(page).at(-1) === count);
const bellCountIs = (page: ChatClient, count: number) => page.waitFor(() => bellCounts(page).at(-1) === count);

async function trio() {
  const [alice, bob, carol] = [await member(), await member(), await member()];
  const group = await createGroup(t.db, alice.user, [bob.user]);
  return { alice, bob, carol, group };
}

describe('the Chat count on an open page', () => {
  it('is told on opening, with the bell', async () => {
    const { alice, bob, group } = await trio();
    await post(alice, group.id, 'before the page opened');
    const page = await openPage(bob);
    expect(page.frames).toEqual([
      { type: 'unread', count: 0 },
      { type: 'counts', counts: { '/chat/': 1 } },
    ]);
    page.close();
  });

  it('rises with a message in one of the user’s groups; not for its author, nor for someone outside', async () => {
    const { alice, bob, carol, group } = await trio();
    const [alicePage, bobPage, carolPage] = [await openPage(alice), await openPage(bob), await openPage(carol)];
    await post(alice, group.id, 'dinner at seven');
    await chatCountIs(bobPage, 1);
    await post(alice, group.id, 'bring bread');
    await chatCountIs(bobPage, 2);
    expect(chatCounts(bobPage)).toEqual([0, 1, 2]);
    // A chat message is no notification: the bell said its count once, on opening.
    expect(bellCounts(bobPage)).toEqual([0]);
    // Told only what moved: the author's count and an outsider's did not.
    await post(bob, group.id, 'ok');
    await chatCountIs(alicePage, 1);
    expect(chatCounts(alicePage)).toEqual([0, 1]);
    expect(carolPage.frames).toHaveLength(2);
    for (const page of [alicePage, bobPage, carolPage]) page.close();
  });

  it('with a mention, rises with the bell; opening the chat in another tab drops both on every tab', async () => {
    const { alice, bob, group } = await trio();
    const tabs = [await openPage(bob), await openPage(bob)];
    await post(alice, group.id, `@${bob.user.username} can you pick up the kids?`);
    for (const tab of tabs) {
      await chatCountIs(tab, 1);
      await bellCountIs(tab, 1);
    }
    const chat = await connectChat(address, `/ws/groups/${group.id}/chat/`, { sessionKey: bob.sessionKey });
    await chat.waitFor((frame) => frame.type === 'history');
    for (const tab of tabs) {
      await chatCountIs(tab, 0);
      await bellCountIs(tab, 0);
    }
    // A message arriving while the chat is open and in sight is read as it comes, before the
    // pages are told: their counts do not move, not even for a moment.
    const told = tabs.map((tab) => tab.frames.length);
    await post(alice, group.id, `@${bob.user.username} thanks!`);
    await chat.waitFor((frame) => frame.type === 'message');
    const elsewhere = await createGroup(t.db, alice.user, [bob.user]);
    await post(alice, elsewhere.id, 'in another group');
    for (const [index, tab] of tabs.entries()) {
      await chatCountIs(tab, 1);
      expect(tab.frames.slice(told[index])).toEqual([{ type: 'counts', counts: { '/chat/': 1 } }]);
    }
    expect(await t.db.selectFrom('notifications').select('id').where('user_id', '=', bob.user.id).where('read_at', 'is', null).execute()).toEqual([]);
    chat.close();
    for (const tab of tabs) tab.close();
  });

  it('drops when the chat page is opened without a socket, and stays up while the chat is out of sight', async () => {
    const { alice, bob, group } = await trio();
    const tab = await openPage(bob);
    const hidden = await connectChat(address, `/ws/groups/${group.id}/chat/?visible=0`, { sessionKey: bob.sessionKey });
    await post(alice, group.id, `@${bob.user.username} look`);
    await hidden.waitFor((frame) => frame.type === 'message');
    await chatCountIs(tab, 1);
    await bellCountIs(tab, 1);
    // The hidden chat reads nothing: its own message back tells the server had its frames.
    hidden.send({ content: 'from the background' });
    await hidden.waitFor((frame) => frame.type === 'message', 2);
    expect(chatCounts(tab).at(-1)).toBe(1);

    expect((await bob.browser.get(`/groups/${group.id}/chat/`)).statusCode).toBe(200);
    await chatCountIs(tab, 0);
    await bellCountIs(tab, 0);
    hidden.close();
    tab.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../db/schema.js';
import { ApiClient, buildTestApp, type ChatClient, connectChat, createGroup, listen, loggedIn, type TestApp, type TestBrowser } from '../../../../test/index.js';
import { Notifications } from '../../notifications/index.js';
import { ChatReads } from './reads.js';

// Reading a message reads its mention: the chat page, an open chat in sight, and one that comes
// back in sight each mark the group's messages read and the reader's mentions in them, so the
// bell and the navigation's Chat agree. A mention in a message not yet read stays unread.

let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' });
  address = await listen(t.app);
});
afterAll(() => t.close());

type Member = { user: User; browser: TestBrowser };

async function post(author: Member, groupId: number, content: string): Promise<void> {
  const sent = await new ApiClient(t.app, { browser: author.browser }).post(`/api/v1/groups/${groupId}/messages/`, { content });
  expect(sent.statusCode).toBe(201);
}

/** The user's unread mention notifications, by the group their link names. */
async function unreadMentions(user: User): Promise<string[]> {
  const rows = await t.db.selectFrom('notifications').select('link').where('user_id', '=', user.id).where('kind', '=', 'chat.mention').where('read_at', 'is', null).orderBy('id').execute();
  return rows.map((row) => row.link);
}

/** The bell's and the Chat link's counts as a page shows them. */
function counts(body: string): { bell: string; chat: string } {
  const bell = /<span class="bell-count" aria-hidden="true"(?: hidden)?>([^<]*)<\/span>/.exec(body)?.[1] ?? '?';
  const chat = /<a href="\/chat\/" class="nav-count-link"[^>]*>Chat(?:<span class="nav-count" aria-hidden="true">([^<]+)<\/span>)?/.exec(body);
  return { bell, chat: chat ? (chat[1] ?? '0') : '?' };
}

async function eventually(check: () => Promise<void>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

function openChat(member: Member, groupId: number, query = ''): Promise<ChatClient> {
  return connectChat(address, `/ws/groups/${groupId}/chat/${query}`, { sessionKey: member.browser.cookies.get('sessionid') });
}

async function pair() {
  const [alice, bob] = [await loggedIn(t), await loggedIn(t)];
  const group = await createGroup(t.db, alice.user, [bob.user]);
  return { alice, bob, group };
}

describe('a mention is read with its message', () => {
  it('on the chat page: the page shows both counts down, and the mention of another group stays', async () => {
    const { alice, bob, group } = await pair();
    const other = await createGroup(t.db, bob.user, [alice.user]);
    await post(bob, group.id, `@${alice.user.username} the car is free on Sunday`);
    await post(bob, other.id, `and here, @${alice.user.username}`);
    expect(counts((await alice.browser.get('/notes/')).body)).toEqual({ bell: '2', chat: '2' });

    const page = await alice.browser.get(`/groups/${group.id}/chat/`);
    expect(page.statusCode).toBe(200);
    // The navigation was read with the session, before the page read the chat: it is read again.
    expect(counts(page.body)).toEqual({ bell: '1', chat: '1' });
    expect(await unreadMentions(alice.user)).toEqual([`/groups/${other.id}/chat/`]);
    expect(counts((await alice.browser.get('/notes/')).body)).toEqual({ bell: '1', chat: '1' });
  });

  it('by a mention read before this change: opening the chat reads it too', async () => {
    const { alice, bob, group } = await pair();
    await post(bob, group.id, `@${alice.user.username} hello`);
    // The chat was read the old way (the mark alone): the mention was left unread.
    const newest = await t.db.selectFrom('chat_messages').select((eb) => eb.fn.max('id').as('id')).where('group_id', '=', group.id).executeTakeFirstOrThrow();
    await t.db.insertInto('chat_reads').values({ user_id: alice.user.id, group_id: group.id, last_read_message_id: Number(newest.id) }).execute();
    expect(counts((await alice.browser.get('/notes/')).body)).toEqual({ bell: '1', chat: '0' });
    expect(counts((await alice.browser.get(`/groups/${group.id}/chat/`)).body)).toEqual({ bell: '0', chat: '0' });
    expect(await unreadMentions(alice.user)).toEqual([]);
  });

  it('on an open chat in sight, as it opens and as messages arrive', async () => {
    const { alice, bob, group } = await pair();
    await post(bob, group.id, `@${alice.user.username} first`);
    const chat = await openChat(alice, group.id);
    await chat.waitFor((frame) => frame.type === 'history');
    await eventually(async () => expect(await unreadMentions(alice.user)).toEqual([]));

    await post(bob, group.id, `@${alice.user.username} second`);
    await chat.waitFor((frame) => frame.type === 'message');
    await eventually(async () => expect(counts((await alice.browser.get('/notes/')).body)).toEqual({ bell: '0', chat: '0' }));
    expect(await unreadMentions(alice.user)).toEqual([]);
    chat.close();
  });

  it('not while the chat is out of sight: once back in sight', async () => {
    const { alice, bob, group } = await pair();
    // Opened in a background tab: the page says so on the handshake.
    const chat = await openChat(alice, group.id, '?visible=0');
    await post(bob, group.id, `@${alice.user.username} are you there?`);
    await chat.waitFor((frame) => frame.type === 'message');
    await post(bob, group.id, 'still waiting');
    await chat.waitFor((frame) => frame.type === 'message', 2);
    // Frames are handled in order: once her own message comes back, the server has had the one before.
    chat.send({ type: 'visibility', visible: false });
    chat.send({ content: 'typed in the dark' });
    await chat.waitFor((frame) => frame.type === 'message', 3);
    expect(await unreadMentions(alice.user)).toEqual([`/groups/${group.id}/chat/`]);
    expect(counts((await alice.browser.get('/notes/')).body)).toEqual({ bell: '1', chat: '2' });

    chat.send({ type: 'visibility', visible: true });
    await eventually(async () => expect(counts((await alice.browser.get('/notes/')).body)).toEqual({ bell: '0', chat: '0' }));
    expect(await unreadMentions(alice.user)).toEqual([]);
    // A visibility frame is no message: nothing was posted, no error came back.
    expect(chat.frames.filter((frame) => frame.type === 'error')).toEqual([]);
    chat.close();
  });

  it('only up to the message read: a mention in a later one stays unread', async () => {
    const { alice, bob, group } = await pair();
    await post(bob, group.id, 'before');
    const read = await t.db.selectFrom('chat_messages').select(['id', 'created_at']).where('group_id', '=', group.id).executeTakeFirstOrThrow();
    await post(bob, group.id, `@${alice.user.username} after`);
    const outcome = await new ChatReads(t.db, { publish: () => {} }, new Notifications(null)).read([{ userId: alice.user.id, groupId: group.id, messageId: read.id, at: read.created_at }]);
    expect(outcome).toEqual({ chat: [alice.user.id], mentions: [] });
    expect(await unreadMentions(alice.user)).toEqual([`/groups/${group.id}/chat/`]);
    expect(counts((await alice.browser.get('/notes/')).body)).toEqual({ bell: '1', chat: '1' });
  });

  it('never for someone who is not a member: their mark is not written', async () => {
    const { alice, bob, group } = await pair();
    const stranger = await loggedIn(t);
    await post(bob, group.id, 'members only');
    const read = await t.db.selectFrom('chat_messages').select(['id', 'created_at']).where('group_id', '=', group.id).executeTakeFirstOrThrow();
    const outcome = await new ChatReads(t.db, { publish: () => {} }, new Notifications(null)).read([
      { userId: stranger.user.id, groupId: group.id, messageId: read.id, at: read.created_at },
      { userId: alice.user.id, groupId: group.id, messageId: read.id, at: read.created_at },
    ]);
    expect(outcome.chat).toEqual([alice.user.id]);
    expect(await t.db.selectFrom('chat_reads').select('user_id').where('group_id', '=', group.id).execute()).toEqual([{ user_id: alice.user.id }]);
  });
});

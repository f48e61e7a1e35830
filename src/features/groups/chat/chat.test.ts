import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ChatClient, connectChat, createGroup, createUser, DEFAULT_PASSWORD, listen, loggedIn, refusedStatus, type TestApp, TestBrowser } from '../../../../test/index.js';
import { sessionKeyId } from '../../../platform/chain/session.js';

const TRUSTED = 'https://tunnel.example';
let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp({ CSRF_TRUSTED_ORIGINS: TRUSTED, CHAT_RATE_BURST: '5', CHAT_RATE_PER_SECOND: '1' });
  address = await listen(t.app);
});
afterAll(() => t.close());

const chatPath = (groupId: number | string) => `/ws/groups/${groupId}/chat/`;

async function member() {
  const { user, browser } = await loggedIn(t);
  return { user, browser, sessionKey: browser.cookies.get('sessionid')! };
}

async function groupOfTwo() {
  const a = await member();
  const b = await member();
  const group = await createGroup(t.db, a.user, [b.user]);
  return { a, b, group };
}

const messages = (client: ChatClient) => client.frames.filter((frame) => frame.type === 'message');

describe('the handshake is refused with 403, never accepted', () => {
  it('for an anonymous caller, without a redirect to login', async () => {
    const { group } = await groupOfTwo();
    expect(await refusedStatus(address, chatPath(group.id))).toBe(403);
    expect(await refusedStatus(address, chatPath(group.id), { sessionKey: 'x'.repeat(32) })).toBe(403);
  });

  it('for a logged-in non-member', async () => {
    const { group } = await groupOfTwo();
    const stranger = await member();
    expect(await refusedStatus(address, chatPath(group.id), { sessionKey: stranger.sessionKey })).toBe(403);
  });

  it('for an unknown or malformed group', async () => {
    const { a } = await groupOfTwo();
    expect(await refusedStatus(address, chatPath(999_999), { sessionKey: a.sessionKey })).toBe(403);
    expect(await refusedStatus(address, chatPath('abc'), { sessionKey: a.sessionKey })).toBe(403);
  });

  it('for a foreign or missing Origin, but not for a trusted one', async () => {
    const { a, group } = await groupOfTwo();
    expect(await refusedStatus(address, chatPath(group.id), { sessionKey: a.sessionKey, origin: 'https://evil.example' })).toBe(403);
    expect(await refusedStatus(address, chatPath(group.id), { sessionKey: a.sessionKey, origin: null })).toBe(403);
    const trusted = await connectChat(address, chatPath(group.id), { sessionKey: a.sessionKey, origin: TRUSTED });
    trusted.close();
  });
});

describe('a member connected to the chat', () => {
  it('gets the last 50 messages as history, oldest first, with every field', async () => {
    const { a, b, group } = await groupOfTwo();
    const base = Date.UTC(2026, 0, 1);
    await t.db
      .insertInto('chat_messages')
      .values(Array.from({ length: 55 }, (_, i) => ({ group_id: group.id, author_id: i % 2 ? a.user.id : b.user.id, content: `m${i}`, created_at: base + i * 1000 })))
      .execute();
    const client = await connectChat(address, chatPath(group.id), { sessionKey: a.sessionKey });
    const history = await client.waitFor((frame) => frame.type === 'history', 50);
    expect(history.map((frame) => frame.content)).toEqual(Array.from({ length: 50 }, (_, i) => `m${i + 5}`));
    expect(history[0]).toEqual({
      type: 'history',
      message_id: expect.any(Number),
      author: a.user.username,
      content: 'm5',
      timestamp: new Date(base + 5000).toISOString(),
      edited_at: null,
      deleted: false,
    });
    client.close();
  });

  it("sends A's message to B and back to A, stored, with author and an ISO timestamp", async () => {
    const { a, b, group } = await groupOfTwo();
    const alice = await connectChat(address, chatPath(group.id), { sessionKey: a.sessionKey });
    const bob = await connectChat(address, chatPath(group.id), { sessionKey: b.sessionKey });
    alice.send({ content: '  hello <b>bob</b>  ' });
    const [received] = await bob.waitFor((frame) => frame.type === 'message');
    expect(received).toEqual({ type: 'message', message_id: expect.any(Number), author: a.user.username, content: 'hello <b>bob</b>', timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), edited_at: null, deleted: false });
    const [echo] = await alice.waitFor((frame) => frame.type === 'message');
    expect(echo).toEqual(received);
    const stored = await t.db.selectFrom('chat_messages').selectAll().where('id', '=', received!.message_id as number).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ group_id: group.id, author_id: a.user.id, content: 'hello <b>bob</b>' });
    alice.close();
    bob.close();
  });

  it('answers oversize, empty, non-JSON and malformed frames with error frames and stays usable', async () => {
    const { a, group } = await groupOfTwo();
    const client = await connectChat(address, chatPath(group.id), { sessionKey: a.sessionKey });
    client.send({ content: 'x'.repeat(2001) });
    client.send('not json at all');
    client.send({ content: '   ' });
    client.send({ text: 'wrong field' });
    const errors = await client.waitFor((frame) => frame.type === 'error', 4);
    expect(errors.map((frame) => frame.error)).toEqual([
      'message is too long (2000 characters at most)',
      'not JSON: send {"content": "..."}',
      'message is empty',
      'send {"content": "..."}',
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    client.send({ content: 'y'.repeat(2000) });
    const [ok] = await client.waitFor((frame) => frame.type === 'message');
    expect((ok!.content as string).length).toBe(2000);
    const count = await t.db.selectFrom('chat_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('group_id', '=', group.id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    client.close();
  });

  it('closes with 1009 a frame beyond 64 KiB, which no chat message needs', async () => {
    const { a, group } = await groupOfTwo();
    const client = await connectChat(address, chatPath(group.id), { sessionKey: a.sessionKey });
    client.send({ content: 'z'.repeat(70_000) });
    expect((await client.closed).code).toBe(1009);
  });

  it('limits each connection to its burst, then to the refill rate', async () => {
    const { a, group } = await groupOfTwo();
    const client = await connectChat(address, chatPath(group.id), { sessionKey: a.sessionKey });
    for (let i = 0; i < 7; i++) client.send({ content: `burst ${i}` });
    await client.waitFor((frame) => frame.type === 'message', 5);
    const errors = await client.waitFor((frame) => frame.type === 'error', 2);
    expect(errors.every((frame) => frame.error === 'rate limited: slow down')).toBe(true);
    expect(messages(client).map((frame) => frame.content)).toEqual(['burst 0', 'burst 1', 'burst 2', 'burst 3', 'burst 4']);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    client.send({ content: 'after refill' });
    await client.waitFor((frame) => frame.content === 'after refill');
    client.close();
  });
});

/** The socket closes with 4403 within `ms`. */
async function closedWithin(client: ChatClient, ms = 1000) {
  const started = Date.now();
  const closed = await Promise.race([client.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);
  expect(closed?.code).toBe(4403);
  expect(Date.now() - started).toBeLessThan(ms);
}

describe('access changes close the socket with 4403 within a second', () => {

  it('when the owner removes the member', async () => {
    const { a, b, group } = await groupOfTwo();
    const bob = await connectChat(address, chatPath(group.id), { sessionKey: b.sessionKey });
    const alice = await connectChat(address, chatPath(group.id), { sessionKey: a.sessionKey });
    expect((await a.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: b.user.id })).statusCode).toBe(302);
    await closedWithin(bob);
    expect(alice.ws.readyState).toBe(alice.ws.OPEN);
    alice.close();
  });

  it('when the member leaves, and when the group is deleted', async () => {
    const { a, b, group } = await groupOfTwo();
    const bob = await connectChat(address, chatPath(group.id), { sessionKey: b.sessionKey });
    const alice = await connectChat(address, chatPath(group.id), { sessionKey: a.sessionKey });
    expect((await b.browser.post(`/groups/${group.id}/leave/`)).statusCode).toBe(302);
    await closedWithin(bob);
    expect((await a.browser.post(`/groups/${group.id}/delete/`)).statusCode).toBe(302);
    await closedWithin(alice);
  });

  it('when the member logs out, and only the sockets of that session', async () => {
    const { a, group } = await groupOfTwo();
    const secondBrowser = new TestBrowser(t.app);
    await secondBrowser.login(a.user.username);
    const here = await connectChat(address, chatPath(group.id), { sessionKey: a.sessionKey });
    const there = await connectChat(address, chatPath(group.id), { sessionKey: secondBrowser.cookies.get('sessionid') });
    expect((await a.browser.post('/accounts/logout/')).statusCode).toBe(302);
    await closedWithin(here);
    expect(there.ws.readyState).toBe(there.ws.OPEN);
    there.close();
  });

  it("when the user changes the password: the sockets of the user's other sessions", async () => {
    const { a, group } = await groupOfTwo();
    const secondBrowser = new TestBrowser(t.app);
    await secondBrowser.login(a.user.username);
    const here = await connectChat(address, chatPath(group.id), { sessionKey: a.sessionKey });
    const there = await connectChat(address, chatPath(group.id), { sessionKey: secondBrowser.cookies.get('sessionid') });
    const newPassword = 'a-much-longer-Passphrase-2026';
    const response = await a.browser.post('/accounts/password_change/', { old_password: DEFAULT_PASSWORD, new_password1: newPassword, new_password2: newPassword });
    expect(response.statusCode).toBe(302);
    await closedWithin(there);
    expect(here.ws.readyState).toBe(here.ws.OPEN);
    here.close();
  });
});

describe('the sockets of a session ended elsewhere close at once', () => {
  it('when that one session is ended from "my sessions", and not the others', async () => {
    const { a, group } = await groupOfTwo();
    const secondBrowser = new TestBrowser(t.app);
    await secondBrowser.login(a.user.username);
    const secondKey = secondBrowser.cookies.get('sessionid')!;
    const here = await connectChat(address, chatPath(group.id), { sessionKey: a.sessionKey });
    const there = await connectChat(address, chatPath(group.id), { sessionKey: secondKey });
    expect((await a.browser.post(`/accounts/sessions/${sessionKeyId(secondKey)}/delete/`)).statusCode).toBe(302);
    await closedWithin(there);
    expect(here.ws.readyState).toBe(here.ws.OPEN);
    here.close();
  });

  it('when an administrator deactivates the user: every session of theirs', async () => {
    const { a, b, group } = await groupOfTwo();
    const admin = await member();
    await t.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.user.id).execute();
    const secondBrowser = new TestBrowser(t.app);
    await secondBrowser.login(b.user.username);
    const bob = await connectChat(address, chatPath(group.id), { sessionKey: b.sessionKey });
    const bobElsewhere = await connectChat(address, chatPath(group.id), { sessionKey: secondBrowser.cookies.get('sessionid') });
    const alice = await connectChat(address, chatPath(group.id), { sessionKey: a.sessionKey });
    expect((await admin.browser.post(`/admin/users/${b.user.id}/deactivate/`)).statusCode).toBe(302);
    await closedWithin(bob);
    await closedWithin(bobElsewhere);
    expect(alice.ws.readyState).toBe(alice.ws.OPEN);
    alice.close();
  });
});

describe('without Redis', () => {
  it('serves local sockets when REDIS_URL names a Redis that is not there (and keeps retrying it)', async () => {
    const other = await buildTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const otherAddress = await listen(other.app);
      const [alice, bob] = [await createUser(other.db), await createUser(other.db)];
      const group = await createGroup(other.db, alice, [bob]);
      const sessionOf = async (username: string) => {
        const browser = new TestBrowser(other.app);
        await browser.login(username);
        return browser.cookies.get('sessionid');
      };
      const a = await connectChat(otherAddress, chatPath(group.id), { sessionKey: await sessionOf(alice.username) });
      const b = await connectChat(otherAddress, chatPath(group.id), { sessionKey: await sessionOf(bob.username) });
      a.send({ content: 'no redis needed here' });
      const [message] = await b.waitFor((frame) => frame.type === 'message');
      expect(message!.content).toBe('no redis needed here');
      a.close();
      b.close();
    } finally {
      await other.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('closes sockets with 1001', async () => {
    const other = await buildTestApp();
    try {
      const otherAddress = await listen(other.app);
      const user = await createUser(other.db);
      const group = await createGroup(other.db, user);
      const browser = new TestBrowser(other.app);
      await browser.login(user.username);
      const client = await connectChat(otherAddress, chatPath(group.id), { sessionKey: browser.cookies.get('sessionid') });
      await client.waitFor(() => true, 0);
      await other.app.close();
      expect((await client.closed).code).toBe(1001);
    } finally {
      await other.close();
    }
  });
});

describe('older history over HTTP', () => {
  it('returns 50 messages before the given id to members, 404 to others', async () => {
    const { a, group } = await groupOfTwo();
    const ids: number[] = [];
    for (let i = 0; i < 60; i++) {
      const row = await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: a.user.id, content: `old ${i}`, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    const response = await a.browser.get(`/groups/${group.id}/chat/messages/?before=${ids[55]}`);
    expect(response.statusCode).toBe(200);
    const body = response.json() as { messages: { message_id: number; content: string; author: string; timestamp: string }[] };
    expect(body.messages).toHaveLength(50);
    expect(body.messages[0]).toEqual({ message_id: ids[5], author: a.user.username, content: 'old 5', timestamp: expect.any(String), edited_at: null, deleted: false });
    expect(body.messages.at(-1)!.message_id).toBe(ids[54]);
    const stranger = await member();
    expect((await stranger.browser.get(`/groups/${group.id}/chat/messages/`)).statusCode).toBe(404);
    expect((await a.browser.get(`/groups/${group.id}/chat/messages/?before=x`)).statusCode).toBe(400);
  });
});

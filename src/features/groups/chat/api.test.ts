import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Caller, type ChatClient, connectChat, fieldsOf, groupCast, listen, results, type TestApp, TestBrowser } from '../../../../test/index.js';

let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp();
  address = await listen(t.app);
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A chat socket of this caller on the group, past its (empty or not) history. */
async function socketOf(caller: Caller, groupId: number): Promise<ChatClient> {
  const browser = new TestBrowser(t.app);
  await browser.login(caller.user.username);
  return connectChat(address, `/ws/groups/${groupId}/chat/`, { sessionKey: browser.cookies.get('sessionid') });
}

async function insertMessages(groupId: number, authorId: number, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const row = await t.db.insertInto('chat_messages').values({ group_id: groupId, author_id: authorId, content: `m${i}`, created_at: Date.UTC(2026, 0, 1, 0, 0, i) }).returning('id').executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

const storedCount = async (groupId: number) =>
  Number((await t.db.selectFrom('chat_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('group_id', '=', groupId).executeTakeFirstOrThrow()).n);

/** The socket closes with 4403 within a second. */
async function closedForAccess(client: ChatClient) {
  const closed = await Promise.race([client.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000))]);
  expect(closed?.code).toBe(4403);
}

describe('GET /api/v1/groups/:pk/messages/', () => {
  it('gives the owner and a member the latest messages with the socket’s fields; a stranger gets 404', async () => {
    const { owner, member, stranger, group } = await groupCast(t);
    const [id] = await insertMessages(group.id, member.user.id, 1);
    const expected = [{ message_id: id, author: member.user.username, content: 'm0', timestamp: new Date(Date.UTC(2026, 0, 1)).toISOString(), edited_at: null, deleted: false }];
    for (const caller of [owner.api, member.readOnly]) {
      const response = await caller.get(`/api/v1/groups/${group.id}/messages/`);
      expect(response.statusCode).toBe(200);
      expect(results(response)).toEqual(expected);
      expect(response.data.next).toBeNull();
    }
    const hidden = await stranger.api.get(`/api/v1/groups/${group.id}/messages/`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).toBe((await stranger.api.get('/api/v1/groups/999999/messages/')).body);
  });

  it('pages from the newest to older ones with `next`, oldest first within a page, and answers 304', async () => {
    const { member, group } = await groupCast(t);
    const ids = await insertMessages(group.id, member.user.id, 5);
    const seen: number[][] = [];
    let url: string | null = `/api/v1/groups/${group.id}/messages/?limit=2`;
    while (url) {
      const response = await member.api.get(url);
      expect(response.statusCode).toBe(200);
      seen.push(results(response).map((message) => message.message_id as unknown as number));
      url = response.data.next === null ? null : String(response.data.next).replace('http://localhost', '');
    }
    expect(seen).toEqual([[ids[3], ids[4]], [ids[1], ids[2]], [ids[0]]]);
    const first = await member.api.get(`/api/v1/groups/${group.id}/messages/?limit=2`);
    expect((await member.api.get(`/api/v1/groups/${group.id}/messages/?limit=2`, { headers: { 'if-none-match': String(first.headers.etag) } })).statusCode).toBe(304);
    await insertMessages(group.id, member.user.id, 1);
    expect((await member.api.get(`/api/v1/groups/${group.id}/messages/?limit=2`, { headers: { 'if-none-match': String(first.headers.etag) } })).statusCode).toBe(200);
  });
});

describe('GET /api/v1/groups/:pk/messages/:messageId/', () => {
  it('shows a message to members only, and only under its own group', async () => {
    const { owner, member, stranger, group } = await groupCast(t);
    const other = await groupCast(t);
    const [id] = await insertMessages(group.id, owner.user.id, 1);
    const [elsewhere] = await insertMessages(other.group.id, other.owner.user.id, 1);
    const path = `/api/v1/groups/${group.id}/messages/${id}/`;
    expect((await owner.api.get(path)).data).toEqual({ message_id: id, author: owner.user.username, content: 'm0', timestamp: expect.stringMatching(ISO), edited_at: null, deleted: false });
    expect((await member.readOnly.get(path)).statusCode).toBe(200);
    expect((await stranger.api.get(path)).statusCode).toBe(404);
    // Another group's message through a group the caller is in: not there.
    expect((await owner.api.get(`/api/v1/groups/${group.id}/messages/${elsewhere}/`)).statusCode).toBe(404);
    expect((await owner.api.get(`/api/v1/groups/${group.id}/messages/2147483647/`)).statusCode).toBe(404);
    expect((await owner.api.get(`/api/v1/groups/${group.id}/messages/2147483648/`)).statusCode).toBe(404);
  });
});

describe('POST /api/v1/groups/:pk/messages/', () => {
  it('stores a member’s message and delivers it live to every socket of the group, the sender’s included', async () => {
    const { owner, member, group } = await groupCast(t);
    const ownerSocket = await socketOf(owner, group.id);
    const memberSocket = await socketOf(member, group.id);
    const response = await member.api.post(`/api/v1/groups/${group.id}/messages/`, { content: '  hello <b>all</b>  ' });
    expect(response.statusCode).toBe(201);
    const id = response.data.message_id as unknown as number;
    expect(response.data).toEqual({ message_id: id, author: member.user.username, content: 'hello <b>all</b>', timestamp: expect.stringMatching(ISO), edited_at: null, deleted: false });
    expect(response.headers.location).toBe(`/api/v1/groups/${group.id}/messages/${id}/`);
    for (const socket of [ownerSocket, memberSocket]) {
      const [frame] = await socket.waitFor((item) => item.type === 'message');
      expect(frame).toEqual({ type: 'message', ...response.data });
    }
    const stored = await t.db.selectFrom('chat_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ group_id: group.id, author_id: member.user.id, content: 'hello <b>all</b>' });
    expect((await owner.api.get(String(response.headers.location))).data).toEqual(response.data);
    ownerSocket.close();
    memberSocket.close();
  });

  it('lets the owner post too', async () => {
    const { owner, group } = await groupCast(t);
    const response = await owner.api.post(`/api/v1/groups/${group.id}/messages/`, { content: 'from the owner' });
    expect(response.statusCode).toBe(201);
    expect(response.data).toMatchObject({ author: owner.user.username });
  });

  it('answers 400 on `content` with the socket’s words, storing and delivering nothing', async () => {
    const { member, group } = await groupCast(t);
    const socket = await socketOf(member, group.id);
    const cases: [unknown, string, string][] = [
      [{ content: '   ' }, 'content', 'message is empty'],
      [{ content: 'x'.repeat(2001) }, 'content', 'message is too long (2000 characters at most)'],
      [{}, 'content', 'send {"content": "..."}'],
      [{ content: 7 }, 'content', 'send {"content": "..."}'],
    ];
    for (const [body, field, message] of cases) {
      const response = await member.api.post(`/api/v1/groups/${group.id}/messages/`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(response)).toEqual({ [field]: [message] });
    }
    const extra = await member.api.post(`/api/v1/groups/${group.id}/messages/`, { content: 'hi', author: 'someone' });
    expect(extra.statusCode).toBe(400);
    expect(fieldsOf(extra)).toHaveProperty('__all__');
    expect(await storedCount(group.id)).toBe(0);
    // 2000 characters after trimming is the most, and is fine; it is the only message the socket hears.
    expect((await member.api.post(`/api/v1/groups/${group.id}/messages/`, { content: ` ${'y'.repeat(2000)} ` })).statusCode).toBe(201);
    await socket.waitFor((frame) => frame.type === 'message');
    expect(socket.frames.filter((frame) => frame.type === 'message').map((frame) => (frame.content as string).length)).toEqual([2000]);
    socket.close();
  });

  it('gives a stranger 404 and a member’s read-only token 403, storing and delivering nothing', async () => {
    const { owner, member, stranger, group } = await groupCast(t);
    const socket = await socketOf(owner, group.id);
    expect((await stranger.api.post(`/api/v1/groups/${group.id}/messages/`, { content: 'let me in' })).statusCode).toBe(404);
    expect((await member.readOnly.post(`/api/v1/groups/${group.id}/messages/`, { content: 'read only' })).statusCode).toBe(403);
    expect(await storedCount(group.id)).toBe(0);
    // A message after them is the first the socket hears.
    await owner.api.post(`/api/v1/groups/${group.id}/messages/`, { content: 'first' });
    await socket.waitFor((frame) => frame.type === 'message');
    expect(socket.frames.filter((frame) => frame.type === 'message').map((frame) => frame.content)).toEqual(['first']);
    socket.close();
  });
});

describe('API changes close chat sockets as the pages do', () => {
  it('removing a member closes their socket with 4403, and only theirs', async () => {
    const { owner, member, group } = await groupCast(t);
    const ownerSocket = await socketOf(owner, group.id);
    const memberSocket = await socketOf(member, group.id);
    expect((await owner.api.delete(`/api/v1/groups/${group.id}/members/${member.user.id}/`)).statusCode).toBe(204);
    await closedForAccess(memberSocket);
    expect(ownerSocket.ws.readyState).toBe(ownerSocket.ws.OPEN);
    ownerSocket.close();
  });

  it('leaving closes the member’s socket; deleting the group closes everyone’s', async () => {
    const { owner, member, group } = await groupCast(t);
    const ownerSocket = await socketOf(owner, group.id);
    const memberSocket = await socketOf(member, group.id);
    expect((await member.api.post(`/api/v1/groups/${group.id}/leave/`)).statusCode).toBe(204);
    await closedForAccess(memberSocket);
    expect(ownerSocket.ws.readyState).toBe(ownerSocket.ws.OPEN);
    expect((await owner.api.delete(`/api/v1/groups/${group.id}/`)).statusCode).toBe(204);
    await closedForAccess(ownerSocket);
  });
});

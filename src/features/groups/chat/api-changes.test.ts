import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, type Caller, type ChatClient, connectChat, fieldsOf, groupCast, listen, type TestApp, TestBrowser, buildTestApp } from '../../../../test/index.js';
import type { User } from '../../../db/schema.js';
import { EDIT_WINDOW_MS } from './message-changes.js';

// PATCH and DELETE on /api/v1/groups/<pk>/messages/<id>/: the pages' rules (message-changes.ts),
// the socket's frames. Whoever may not change a message gets the 404 of a missing one.

let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp({ CHAT_RATE_PER_SECOND: '0' });
  address = await listen(t.app);
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function post(groupId: number, author: User, content = 'a wrong link', createdAt = Date.now()): Promise<number> {
  const row = await t.db.insertInto('chat_messages').values({ group_id: groupId, author_id: author.id, content, created_at: createdAt }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

const stored = (id: number) => t.db.selectFrom('chat_messages').select(['content', 'edited_at', 'deleted_at']).where('id', '=', id).executeTakeFirstOrThrow();

async function socketOf(caller: Caller, groupId: number): Promise<ChatClient> {
  const browser = new TestBrowser(t.app);
  await browser.login(caller.user.username);
  const client = await connectChat(address, `/ws/groups/${groupId}/chat/`, { sessionKey: browser.cookies.get('sessionid') });
  await new Promise((resolve) => setTimeout(resolve, 50));
  return client;
}

const changeFrames = (client: ChatClient) => client.frames.filter((frame) => frame.type === 'edited' || frame.type === 'deleted');
const path = (groupId: number, id: number) => `/api/v1/groups/${groupId}/messages/${id}/`;

/** The group's owner, the author of its messages, another member and a stranger, each with tokens. */
async function cast() {
  const { owner, member: author, stranger, group } = await groupCast(t);
  const member = await apiCaller(t);
  await t.db.insertInto('group_members').values({ group_id: group.id, user_id: member.user.id, joined_at: Date.now() }).execute();
  return { owner, author, member, stranger, group };
}

/** A caller who was a member, wrote `content` just now, and was removed. */
async function removedAuthor(groupId: number, content: string) {
  const caller = await apiCaller(t);
  await t.db.insertInto('group_members').values({ group_id: groupId, user_id: caller.user.id, joined_at: Date.now() }).execute();
  const id = await post(groupId, caller.user, content);
  await t.db.deleteFrom('group_members').where('group_id', '=', groupId).where('user_id', '=', caller.user.id).execute();
  return { caller, id };
}

describe('PATCH /api/v1/groups/:pk/messages/:messageId/', () => {
  it('lets the author edit within the window: the message with `edited_at`, every socket hears `edited`, GET shows it', async () => {
    const { owner, author, group } = await cast();
    const id = await post(group.id, author.user, 'frist');
    const socket = await socketOf(owner, group.id);
    const response = await author.api.patch(path(group.id, id), { content: '  first  ' });
    expect(response.statusCode).toBe(200);
    expect(response.data).toEqual({ message_id: id, author: author.user.username, content: 'first', timestamp: expect.stringMatching(ISO), edited_at: expect.stringMatching(ISO), deleted: false });
    const [frame] = await socket.waitFor((item) => item.type === 'edited');
    expect(frame).toEqual({ type: 'edited', message_id: id, content: 'first', edited_at: response.data.edited_at });
    expect((await owner.api.get(path(group.id, id))).data).toEqual(response.data);
    socket.close();
  });

  it('answers 400 with the socket’s words for content out of the rules, changing nothing', async () => {
    const { author, group } = await cast();
    const id = await post(group.id, author.user, 'original');
    const cases: [unknown, string][] = [
      [{ content: '   ' }, 'message is empty'],
      [{ content: 'x'.repeat(2001) }, 'message is too long (2000 characters at most)'],
      [{}, 'send {"content": "..."}'],
    ];
    for (const [body, message] of cases) {
      const response = await author.api.patch(path(group.id, id), body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(response)).toEqual({ content: [message] });
    }
    expect((await author.api.patch(path(group.id, id), { content: 'x', author: 'someone' })).statusCode).toBe(400);
    expect(await stored(id)).toEqual({ content: 'original', edited_at: null, deleted_at: null });
  });

  it('with If-Match, edits only the message as the caller read it: 412 otherwise, and nothing changes', async () => {
    const { author, group } = await cast();
    const id = await post(group.id, author.user, 'one');
    const read = await author.api.get(path(group.id, id));
    const etag = String(read.headers.etag);
    expect((await author.api.patch(path(group.id, id), { content: 'two' }, { headers: { 'if-match': etag } })).statusCode).toBe(200);
    const stale = await author.api.patch(path(group.id, id), { content: 'three' }, { headers: { 'if-match': etag } });
    expect(stale.statusCode).toBe(412);
    expect((await stored(id)).content).toBe('two');
  });

  it('gives another member, the owner, a stranger, the author past the window and a removed author 404; a read-only token 403; nothing changes or is heard', async () => {
    const { owner, author, member, stranger, group } = await cast();
    const recent = await post(group.id, author.user, 'recent');
    const old = await post(group.id, author.user, 'old', Date.now() - EDIT_WINDOW_MS - 1000);
    const removed = await removedAuthor(group.id, 'by the removed');
    const socket = await socketOf(owner, group.id);
    const refused: [Caller, number][] = [
      [member, recent],
      [owner, recent],
      [stranger, recent],
      [author, old],
      [removed.caller, removed.id],
      [author, 999_999],
    ];
    const missing = await author.api.patch(path(group.id, 999_999), { content: 'changed' });
    for (const [caller, id] of refused) {
      const response = await caller.api.patch(path(group.id, id), { content: 'changed' });
      expect(response.statusCode, `${caller.user.username} on ${id}`).toBe(404);
      expect(response.body).toBe(missing.body);
    }
    expect((await author.readOnly.patch(path(group.id, recent), { content: 'changed' })).statusCode).toBe(403);
    expect((await stored(recent)).content).toBe('recent');
    expect((await stored(old)).content).toBe('old');
    expect((await stored(removed.id)).content).toBe('by the removed');
    expect((await author.api.patch(path(group.id, recent), { content: 'allowed' })).statusCode).toBe(200);
    await socket.waitFor((frame) => frame.type === 'edited');
    expect(changeFrames(socket)).toEqual([expect.objectContaining({ type: 'edited', message_id: recent, content: 'allowed' })]);
    socket.close();
  });
});

describe('DELETE /api/v1/groups/:pk/messages/:messageId/', () => {
  it('lets the author delete within the window: 204, the message stays empty with `deleted`, every socket hears `deleted`', async () => {
    const { owner, author, group } = await cast();
    const id = await post(group.id, author.user, 'oops');
    const socket = await socketOf(owner, group.id);
    expect((await author.api.delete(path(group.id, id))).statusCode).toBe(204);
    expect(await socket.waitFor((frame) => frame.type === 'deleted')).toEqual([{ type: 'deleted', message_id: id }]);
    expect((await owner.api.get(path(group.id, id))).data).toEqual({ message_id: id, author: author.user.username, content: '', timestamp: expect.stringMatching(ISO), edited_at: null, deleted: true });
    // Gone once: a second delete, and an edit, find nothing to change.
    expect((await author.api.delete(path(group.id, id))).statusCode).toBe(404);
    expect((await author.api.patch(path(group.id, id), { content: 'back' })).statusCode).toBe(404);
    socket.close();
  });

  it('lets the group’s owner delete another member’s message, however old', async () => {
    const { owner, author, member, group } = await cast();
    const id = await post(group.id, author.user, 'old', Date.now() - 30 * 24 * 3600_000);
    const socket = await socketOf(member, group.id);
    expect((await owner.api.delete(path(group.id, id))).statusCode).toBe(204);
    expect(await socket.waitFor((frame) => frame.type === 'deleted')).toEqual([{ type: 'deleted', message_id: id }]);
    expect((await stored(id)).content).toBe('');
    socket.close();
  });

  it('gives another member, a stranger, the author past the window and a removed author 404; a read-only token 403; nothing changes or is heard', async () => {
    const { owner, author, member, stranger, group } = await cast();
    const recent = await post(group.id, author.user, 'recent');
    const old = await post(group.id, author.user, 'old', Date.now() - EDIT_WINDOW_MS - 1000);
    const removed = await removedAuthor(group.id, 'by the removed');
    const socket = await socketOf(owner, group.id);
    const refused: [Caller, number][] = [
      [member, recent],
      [stranger, recent],
      [author, old],
      [removed.caller, removed.id],
      [owner, 999_999],
    ];
    for (const [caller, id] of refused) expect((await caller.api.delete(path(group.id, id))).statusCode, `${caller.user.username} on ${id}`).toBe(404);
    expect((await author.readOnly.delete(path(group.id, recent))).statusCode).toBe(403);
    expect((await owner.readOnly.delete(path(group.id, recent))).statusCode).toBe(403);
    expect(await stored(recent)).toEqual({ content: 'recent', edited_at: null, deleted_at: null });
    expect((await stored(old)).deleted_at).toBeNull();
    expect((await stored(removed.id)).deleted_at).toBeNull();
    expect((await author.api.delete(path(group.id, recent))).statusCode).toBe(204);
    await socket.waitFor((frame) => frame.type === 'deleted');
    expect(changeFrames(socket)).toEqual([{ type: 'deleted', message_id: recent }]);
    socket.close();
  });
});

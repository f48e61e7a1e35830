import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, buildTestApp, type ChatClient, connectChat, groupCast, listen, racingWhileLocked, type TestApp, TestBrowser } from '../../../../test/index.js';
import type { User } from '../../../db/schema.js';
import { EDIT_WINDOW_MS, MessageChanges } from './message-changes.js';

// Each edit and delete is one statement that checks and acts at once: an edit landing as the
// window ends, or racing a delete, can never change what it should not.

let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp({ CHAT_RATE_PER_SECOND: '0', API_RATE_PER_SECOND: '0' });
  address = await listen(t.app);
});
afterAll(() => t.close());

async function post(groupId: number, author: User, createdAt: number): Promise<number> {
  const row = await t.db.insertInto('chat_messages').values({ group_id: groupId, author_id: author.id, content: 'original', created_at: createdAt }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

const stored = (id: number) => t.db.selectFrom('chat_messages').select(['content', 'edited_at', 'deleted_at']).where('id', '=', id).executeTakeFirstOrThrow();

async function socketOf(user: User, groupId: number): Promise<ChatClient> {
  const browser = new TestBrowser(t.app);
  await browser.login(user.username);
  const client = await connectChat(address, `/ws/groups/${groupId}/chat/`, { sessionKey: browser.cookies.get('sessionid') });
  await new Promise((resolve) => setTimeout(resolve, 50));
  return client;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the window’s end, to the millisecond', () => {
  it('an edit or the author’s delete at its last millisecond goes through, one at its end does not; the owner deletes whenever', async () => {
    const { owner, member, group } = await groupCast(t);
    const changes = new MessageChanges(t.db);
    const created = Date.now();
    const id = await post(group.id, member.user, created);
    expect(await changes.edit(group.id, id, member.user.id, 'late', created + EDIT_WINDOW_MS)).toBeUndefined();
    expect(await changes.remove(group.id, id, member.user.id, created + EDIT_WINDOW_MS)).toBe(false);
    expect(await changes.edit(group.id, id, member.user.id, 'just in time', created + EDIT_WINDOW_MS - 1)).toEqual({ id, content: 'just in time', created_at: created, edited_at: created + EDIT_WINDOW_MS - 1 });
    expect(await changes.remove(group.id, id, owner.user.id, created + 365 * 24 * 3600_000)).toBe(true);
    expect(await stored(id)).toEqual({ content: '', edited_at: created + EDIT_WINDOW_MS - 1, deleted_at: created + 365 * 24 * 3600_000 });
  });
});

describe('edits sent while the window ends', () => {
  it('the ones answered 200 all came before its end, each was heard once, and the stored text is one of theirs', async () => {
    const { owner, member, group } = await groupCast(t);
    const socket = await socketOf(owner.user, group.id);
    const ends = Date.now() + 500;
    const id = await post(group.id, member.user, ends - EDIT_WINDOW_MS);
    const sent: Promise<ApiResponse>[] = [];
    for (let i = 0; i < 40; i++) {
      sent.push(member.api.patch(`/api/v1/groups/${group.id}/messages/${id}/`, { content: `edit ${i}` }));
      await sleep(25);
    }
    const answers = await Promise.all(sent);
    const accepted = answers.filter((answer) => answer.statusCode === 200).map((answer) => ({ content: String(answer.data.content), editedAt: Date.parse(String(answer.data.edited_at)) }));
    expect(answers.every((answer) => answer.statusCode === 200 || answer.statusCode === 404)).toBe(true);
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThan(answers.length);
    expect(accepted.every((edit) => edit.editedAt < ends)).toBe(true);
    const row = await stored(id);
    expect(accepted).toContainEqual({ content: row.content, editedAt: Number(row.edited_at) });
    await socket.waitFor((frame) => frame.type === 'edited', accepted.length);
    await sleep(100);
    const heard = socket.frames.filter((frame) => frame.type === 'edited').map((frame) => String(frame.content));
    expect(heard.sort()).toEqual(accepted.map((edit) => edit.content).sort());
    socket.close();
  });
});

describe('edits racing a delete', () => {
  it('leave the message deleted and empty: no edit lands after the delete, and the frames end with it deleted', async () => {
    const { owner, member, group } = await groupCast(t);
    const id = await post(group.id, member.user, Date.now());
    const socket = await socketOf(owner.user, group.id);
    const edits: Promise<ApiResponse>[] = [];
    let deletion: Promise<ApiResponse> | null = null;
    for (let i = 0; i < 20; i++) {
      edits.push(member.api.patch(`/api/v1/groups/${group.id}/messages/${id}/`, { content: `edit ${i}` }));
      if (i === 10) deletion = owner.api.delete(`/api/v1/groups/${group.id}/messages/${id}/`);
      await sleep(2);
    }
    expect((await deletion!).statusCode).toBe(204);
    const answers = await Promise.all(edits);
    expect(answers.every((answer) => answer.statusCode === 200 || answer.statusCode === 404)).toBe(true);
    const row = await stored(id);
    expect(row.content).toBe('');
    expect(row.deleted_at).not.toBeNull();
    // Every edit after the delete was answered, finds nothing to change.
    expect((await member.api.patch(`/api/v1/groups/${group.id}/messages/${id}/`, { content: 'too late' })).statusCode).toBe(404);

    await socket.waitFor((frame) => frame.type === 'deleted');
    await sleep(100);
    const edited = socket.frames.filter((frame) => frame.type === 'edited');
    expect(edited).toHaveLength(answers.filter((answer) => answer.statusCode === 200).length);
    expect(socket.frames.filter((frame) => frame.type === 'deleted')).toEqual([{ type: 'deleted', message_id: id }]);
    // As a client applies them (a delete is final): deleted.
    const shown = socket.frames.reduce<{ deleted: boolean; content: string }>(
      (state, frame) => (state.deleted ? state : frame.type === 'deleted' ? { deleted: true, content: '' } : frame.type === 'edited' ? { deleted: false, content: String(frame.content) } : state),
      { deleted: false, content: 'original' },
    );
    expect(shown).toEqual({ deleted: true, content: '' });
    socket.close();
  });
});

describe('edits waiting on a delete not yet committed', () => {
  it('find the message deleted once it is, and change nothing (PostgreSQL holds them on the row; SQLite’s transactions take turns)', async () => {
    const { owner, member, group } = await groupCast(t);
    const id = await post(group.id, member.user, Date.now());
    const deleting = (db: typeof t.db) => new MessageChanges(db).remove(group.id, id, owner.user.id);
    const edits = () => Promise.all(Array.from({ length: 5 }, (_, i) => member.api.patch(`/api/v1/groups/${group.id}/messages/${id}/`, { content: `edit ${i}` })));
    // The delete is made, uncommitted, in the test's own transaction; the edits start while it holds the row.
    const answers = t.database.dialect === 'postgres' ? await racingWhileLocked(t, deleting, edits) : (await deleting(t.db), await edits());
    expect(answers.map((answer) => answer.statusCode)).toEqual([404, 404, 404, 404, 404]);
    expect(await stored(id)).toMatchObject({ content: '', edited_at: null });
    expect((await stored(id)).deleted_at).not.toBeNull();
  });
});

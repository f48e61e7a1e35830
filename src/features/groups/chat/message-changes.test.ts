import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ChatClient, connectChat, createGroup, listen, loggedIn, type TestApp, type TestBrowser } from '../../../../test/index.js';
import type { User } from '../../../db/schema.js';
import { EDIT_WINDOW_MS } from './message-changes.js';

// Editing and deleting a chat message through its pages (which work without JavaScript), and the
// frames every socket of the group hears. Who may: the author within the window, and for a delete
// the group's owner whenever; anyone else gets the 404 of a missing message, and nothing changes.

let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp({ CHAT_RATE_PER_SECOND: '0' });
  address = await listen(t.app);
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface Person {
  user: User;
  browser: TestBrowser;
}

/** Owner Olha, author Bohdan, another member Chrystia, and Dmytro who is in no group of theirs. */
async function cast() {
  const owner = await loggedIn(t);
  const author = await loggedIn(t);
  const member = await loggedIn(t);
  const stranger = await loggedIn(t);
  const group = await createGroup(t.db, owner.user, [author.user, member.user]);
  return { owner, author, member, stranger, group };
}

async function post(groupId: number, author: User, content = 'a wrong link', createdAt = Date.now()): Promise<number> {
  const row = await t.db.insertInto('chat_messages').values({ group_id: groupId, author_id: author.id, content, created_at: createdAt }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

const stored = (id: number) => t.db.selectFrom('chat_messages').select(['content', 'edited_at', 'deleted_at']).where('id', '=', id).executeTakeFirstOrThrow();

async function socketOf(person: Person, groupId: number): Promise<ChatClient> {
  const client = await connectChat(address, `/ws/groups/${groupId}/chat/`, { sessionKey: person.browser.cookies.get('sessionid') });
  // Past its history, so that what it hears next is live.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return client;
}

const changeFrames = (client: ChatClient) => client.frames.filter((frame) => frame.type === 'edited' || frame.type === 'deleted');
const editPath = (groupId: number, id: number | string) => `/groups/${groupId}/chat/messages/${id}/edit/`;
const deletePath = (groupId: number, id: number | string) => `/groups/${groupId}/chat/messages/${id}/delete/`;

describe('the author edits a message within the window', () => {
  it('on its page: the form shows the text; the save trims it, marks it edited, goes back to the chat, and every socket hears it', async () => {
    const { owner, author, member, group } = await cast();
    const id = await post(group.id, author.user, 'see /notes/1/');
    const sockets = [await socketOf(owner, group.id), await socketOf(member, group.id), await socketOf(author, group.id)];

    const form = await author.browser.get(editPath(group.id, id));
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('see /notes/1/</textarea>');
    expect(form.body).toContain(`action="${editPath(group.id, id)}"`);

    const saved = await author.browser.post(editPath(group.id, id), { content: '  see /notes/2/  ' });
    expect(saved.statusCode).toBe(302);
    expect(saved.headers.location).toBe(`/groups/${group.id}/chat/`);
    const row = await stored(id);
    expect(row).toMatchObject({ content: 'see /notes/2/', deleted_at: null });
    expect(Number(row.edited_at)).toBeGreaterThan(Date.now() - 5000);
    for (const socket of sockets) {
      const [frame] = await socket.waitFor((item) => item.type === 'edited');
      expect(frame).toEqual({ type: 'edited', message_id: id, content: 'see /notes/2/', edited_at: new Date(Number(row.edited_at)).toISOString() });
      socket.close();
    }

    // What a reader sees afterwards: the page marks it, history and older history carry the fields.
    const page = await member.browser.get(`/groups/${group.id}/chat/`);
    expect(page.body).toMatch(/class="chat-edited"[^>]*>edited</);
    expect(page.body).toContain('see /notes/2/');
    const later = await socketOf(member, group.id);
    const [history] = await later.waitFor((frame) => frame.type === 'history');
    expect(history).toMatchObject({ message_id: id, content: 'see /notes/2/', edited_at: expect.stringMatching(ISO), deleted: false });
    later.close();
    const older = (await member.browser.get(`/groups/${group.id}/chat/messages/?before=${id + 1}`)).json() as { messages: object[] };
    expect(older.messages).toEqual([expect.objectContaining({ message_id: id, edited_at: expect.stringMatching(ISO), deleted: false })]);
  });

  it('under a new message’s rules: empty once trimmed or over 2000 characters is the form again with a 400, nothing changed or heard', async () => {
    const { owner, author, group } = await cast();
    const id = await post(group.id, author.user, 'original');
    const socket = await socketOf(owner, group.id);
    for (const content of ['   ', 'x'.repeat(2001)]) {
      const response = await author.browser.post(editPath(group.id, id), { content });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('aria-invalid="true"');
    }
    expect(await stored(id)).toEqual({ content: 'original', edited_at: null, deleted_at: null });
    expect((await author.browser.post(editPath(group.id, id), { content: 'y'.repeat(2000) })).statusCode).toBe(302);
    await socket.waitFor((frame) => frame.type === 'edited');
    expect(changeFrames(socket).map((frame) => (frame.content as string).length)).toEqual([2000]);
    socket.close();
  });

  it('needs the CSRF token, like every form', async () => {
    const { author, group } = await cast();
    const id = await post(group.id, author.user, 'original');
    expect((await author.browser.post(editPath(group.id, id), { content: 'forged' }, { csrf: false })).statusCode).toBe(403);
    expect((await author.browser.post(deletePath(group.id, id), {}, { csrf: false })).statusCode).toBe(403);
    expect(await stored(id)).toEqual({ content: 'original', edited_at: null, deleted_at: null });
  });
});

describe('everyone else gets the 404 of a missing message for an edit, GET and POST, and nothing changes or is heard', () => {
  it('another member, the owner (not its author), a stranger, the author past the window, an author no longer a member, on a deleted message, through another group, a missing id', async () => {
    const { owner, author, member, stranger, group } = await cast();
    const other = await cast();
    const recent = await post(group.id, author.user, 'recent');
    const old = await post(group.id, author.user, 'old', Date.now() - EDIT_WINDOW_MS - 1000);
    const gone = await post(group.id, author.user, 'gone');
    await author.browser.post(deletePath(group.id, gone));
    const elsewhere = await post(other.group.id, other.author.user, 'elsewhere');
    const leaver = await loggedIn(t);
    await t.db.insertInto('group_members').values({ group_id: group.id, user_id: leaver.user.id, joined_at: Date.now() }).execute();
    const byLeaver = await post(group.id, leaver.user, 'by the leaver');
    await t.db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', leaver.user.id).execute();
    const socket = await socketOf(owner, group.id);

    // The author of another group's message, also a member of this group: not through this one.
    await t.db.insertInto('group_members').values({ group_id: group.id, user_id: other.author.user.id, joined_at: Date.now() }).execute();
    const refused: [Person, number | string][] = [
      [member, recent],
      [owner, recent],
      [stranger, recent],
      [author, old],
      [author, gone],
      [leaver, byLeaver],
      [other.author, elsewhere],
      [author, 999_999],
      [author, 'abc'],
    ];
    for (const [person, id] of refused) {
      expect((await person.browser.get(editPath(group.id, id))).statusCode, `GET ${id}`).toBe(404);
      expect((await person.browser.post(editPath(group.id, id), { content: 'changed' })).statusCode, `POST ${id}`).toBe(404);
      // An invalid form says nothing about the message either.
      expect((await person.browser.post(editPath(group.id, id), { content: '' })).statusCode).toBe(404);
    }

    expect((await stored(recent)).content).toBe('recent');
    expect((await stored(old)).content).toBe('old');
    expect((await stored(byLeaver)).content).toBe('by the leaver');
    expect(await stored(elsewhere)).toEqual({ content: 'elsewhere', edited_at: null, deleted_at: null });
    // The first change the socket hears is the one allowed after all of them.
    expect((await author.browser.post(editPath(group.id, recent), { content: 'allowed' })).statusCode).toBe(302);
    await socket.waitFor((frame) => frame.type === 'edited');
    expect(changeFrames(socket)).toEqual([expect.objectContaining({ type: 'edited', message_id: recent, content: 'allowed' })]);
    socket.close();
  });
});

describe('deleting a message', () => {
  it('by its author within the window: a confirmation, then its content emptied and the row kept, back to the chat, and every socket hears it', async () => {
    const { owner, author, member, group } = await cast();
    const before = await post(group.id, author.user, 'before');
    const id = await post(group.id, author.user, 'a wrong link: /notes/1/');
    const after = await post(group.id, member.user, 'after');
    const sockets = [await socketOf(owner, group.id), await socketOf(member, group.id)];

    const confirm = await author.browser.get(deletePath(group.id, id));
    expect(confirm.statusCode).toBe(200);
    // The shape public/js/confirm.js opens as a dialog: one POST form in <main>, under a heading.
    expect(/<main[^>]*>([\s\S]*)<\/main>/.exec(confirm.body)![1]!.match(/<form method="post"/g)).toHaveLength(1);
    expect(confirm.body).toContain(`action="${deletePath(group.id, id)}"`);
    expect(confirm.body).toContain('a wrong link: /notes/1/');

    const deleted = await author.browser.post(deletePath(group.id, id));
    expect(deleted.statusCode).toBe(302);
    expect(deleted.headers.location).toBe(`/groups/${group.id}/chat/`);
    expect(await stored(id)).toMatchObject({ content: '', edited_at: null });
    expect((await stored(id)).deleted_at).not.toBeNull();
    for (const socket of sockets) {
      const [frame] = await socket.waitFor((item) => item.type === 'deleted');
      expect(frame).toEqual({ type: 'deleted', message_id: id });
      socket.close();
    }

    // The history keeps its ids in a row, the deleted one in its place and empty.
    const later = await socketOf(member, group.id);
    const history = await later.waitFor((frame) => frame.type === 'history', 3);
    expect(history.map((frame) => [frame.message_id, frame.content, frame.deleted])).toEqual([
      [before, 'before', false],
      [id, '', true],
      [after, 'after', false],
    ]);
    later.close();
    const page = await member.browser.get(`/groups/${group.id}/chat/`);
    expect(page.body).toContain('<p class="chat-deleted">message deleted</p>');
    expect(page.body).not.toContain('a wrong link');
  });

  it('by the group’s owner: another member’s message, however old', async () => {
    const { owner, author, member, group } = await cast();
    const id = await post(group.id, author.user, 'a year ago', Date.now() - 365 * 24 * 3600_000);
    const socket = await socketOf(member, group.id);
    expect((await owner.browser.get(deletePath(group.id, id))).statusCode).toBe(200);
    expect((await owner.browser.post(deletePath(group.id, id))).statusCode).toBe(302);
    expect((await stored(id)).content).toBe('');
    expect(await socket.waitFor((frame) => frame.type === 'deleted')).toEqual([{ type: 'deleted', message_id: id }]);
    socket.close();
  });

  it('by anyone else: the 404 of a missing message, GET and POST, and nothing changes or is heard', async () => {
    const { owner, author, member, stranger, group } = await cast();
    const recent = await post(group.id, author.user, 'recent');
    const old = await post(group.id, author.user, 'old', Date.now() - EDIT_WINDOW_MS - 1000);
    const gone = await post(group.id, author.user, 'gone');
    await owner.browser.post(deletePath(group.id, gone));
    const leaver = await loggedIn(t);
    await t.db.insertInto('group_members').values({ group_id: group.id, user_id: leaver.user.id, joined_at: Date.now() }).execute();
    const byLeaver = await post(group.id, leaver.user, 'by the leaver');
    await t.db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', leaver.user.id).execute();
    const socket = await socketOf(owner, group.id);

    const refused: [Person, number | string][] = [
      [member, recent],
      [stranger, recent],
      [author, old],
      [leaver, byLeaver],
      [author, gone],
      [owner, gone],
      [owner, 999_999],
      [owner, '0'],
    ];
    for (const [person, id] of refused) {
      expect((await person.browser.get(deletePath(group.id, id))).statusCode, `GET ${id}`).toBe(404);
      expect((await person.browser.post(deletePath(group.id, id))).statusCode, `POST ${id}`).toBe(404);
    }
    expect(await stored(recent)).toEqual({ content: 'recent', edited_at: null, deleted_at: null });
    expect((await stored(old)).content).toBe('old');
    expect((await stored(byLeaver)).content).toBe('by the leaver');
    expect((await author.browser.post(deletePath(group.id, recent))).statusCode).toBe(302);
    await socket.waitFor((frame) => frame.type === 'deleted');
    expect(changeFrames(socket)).toEqual([{ type: 'deleted', message_id: recent }]);
    socket.close();
  });
});

describe('the chat page’s Edit and Delete links', () => {
  it('the author’s own messages within the window; Delete on every message for the owner; none on deleted ones', async () => {
    const { owner, author, member, group } = await cast();
    const recent = await post(group.id, author.user, 'recent');
    const old = await post(group.id, author.user, 'old', Date.now() - EDIT_WINDOW_MS - 1000);
    const byOwner = await post(group.id, owner.user, 'by the owner');
    const gone = await post(group.id, author.user, 'gone');
    await author.browser.post(deletePath(group.id, gone));
    const links = async (person: Person) => {
      const body = (await person.browser.get(`/groups/${group.id}/chat/`)).body;
      return [...body.matchAll(/href="\/groups\/\d+\/chat\/messages\/(\d+)\/(edit|delete)\/"/g)].map((match) => `${match[2]}:${Number(match[1])}`);
    };
    expect(await links(author)).toEqual([`edit:${recent}`, `delete:${recent}`]);
    expect(await links(owner)).toEqual([`delete:${recent}`, `delete:${old}`, `edit:${byOwner}`, `delete:${byOwner}`]);
    expect(await links(member)).toEqual([]);
  });
});

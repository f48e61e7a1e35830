import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, connectChat, createGroup, createToken, createUser, type Instance, TestBrowser, twoInstances } from '../../../../test/index.js';

// An edit or a delete made on one instance reaches the group's sockets on the other through Redis,
// as new messages do: two instances on one database, on a channel prefix of this run only.
let one: Instance;
let two: Instance;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ one, two, close } = await twoInstances({ CHAT_RATE_PER_SECOND: '0' }));
});

afterAll(() => close());

async function browserOn(instance: Instance, username: string) {
  const browser = new TestBrowser(instance.app);
  await browser.login(username);
  return browser;
}

/** Olha owns the group (a token and a socket on instance 1); Bohdan wrote a message (a browser and a socket on instance 2). */
async function setUp() {
  const db = one.database.db;
  const olha = await createUser(db);
  const bohdan = await createUser(db);
  const group = await createGroup(db, olha, [bohdan]);
  const { id } = await db.insertInto('chat_messages').values({ group_id: group.id, author_id: bohdan.id, content: 'a wrong link', created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
  const api = new ApiClient(one.app, { token: await createToken(db, olha) });
  const bohdanBrowser = await browserOn(two, bohdan.username);
  const path = `/ws/groups/${group.id}/chat/`;
  const onOne = await connectChat(one.address, path, { sessionKey: (await browserOn(one, olha.username)).cookies.get('sessionid') });
  const onTwo = await connectChat(two.address, path, { sessionKey: bohdanBrowser.cookies.get('sessionid') });
  await Promise.all([onOne.waitFor((frame) => frame.type === 'history'), onTwo.waitFor((frame) => frame.type === 'history')]);
  return { group, id, api, bohdanBrowser, onOne, onTwo };
}

describe('edits and deletes across two instances behind one Redis', () => {
  it('an edit on the page of instance 2 reaches the socket on instance 1, and the sender’s own', async () => {
    const { group, id, bohdanBrowser, onOne, onTwo } = await setUp();
    expect((await bohdanBrowser.post(`/groups/${group.id}/chat/messages/${id}/edit/`, { content: 'the right link' })).statusCode).toBe(302);
    for (const socket of [onOne, onTwo]) {
      const [frame] = await socket.waitFor((item) => item.type === 'edited');
      expect(frame).toEqual({ type: 'edited', message_id: id, content: 'the right link', edited_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    }
    onOne.close();
    onTwo.close();
  });

  it('the owner’s delete through the API on instance 1 reaches the socket on instance 2', async () => {
    const { group, id, api, onOne, onTwo } = await setUp();
    expect((await api.delete(`/api/v1/groups/${group.id}/messages/${id}/`)).statusCode).toBe(204);
    for (const socket of [onTwo, onOne]) expect(await socket.waitFor((item) => item.type === 'deleted')).toEqual([{ type: 'deleted', message_id: id }]);
    onOne.close();
    onTwo.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, connectChat, createGroup, createToken, createUser, type Instance, TestBrowser, twoInstances } from '../../../../test/index.js';

// The API's writes reach chat sockets on another instance through Redis, as the pages' and the
// socket's own do: two instances on one database, on a channel prefix of this run only.
let one: Instance;
let two: Instance;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ one, two, close } = await twoInstances());
});

afterAll(() => close());

/** Alice (owner, with a token on instance 1) and Bob (member, with a chat socket on instance 2). */
async function setUp() {
  const db = one.database.db;
  const alice = await createUser(db);
  const bob = await createUser(db);
  const group = await createGroup(db, alice, [bob]);
  const api = new ApiClient(one.app, { token: await createToken(db, alice) });
  const browser = new TestBrowser(two.app);
  await browser.login(bob.username);
  const onTwo = await connectChat(two.address, `/ws/groups/${group.id}/chat/`, { sessionKey: browser.cookies.get('sessionid') });
  return { alice, bob, group, api, onTwo };
}

describe('the JSON API on one instance, a chat socket on another', () => {
  it('delivers a message posted through the API to the socket on instance 2', async () => {
    const { alice, group, api, onTwo } = await setUp();
    const response = await api.post(`/api/v1/groups/${group.id}/messages/`, { content: 'posted on one' });
    expect(response.statusCode).toBe(201);
    const [frame] = await onTwo.waitFor((item) => item.type === 'message');
    expect(frame).toEqual({ type: 'message', ...response.data });
    expect(frame).toMatchObject({ author: alice.username, content: 'posted on one' });
    onTwo.close();
  });

  it('closes the socket on instance 2 within a second of the member’s removal through the API on instance 1', async () => {
    const { bob, group, api, onTwo } = await setUp();
    expect((await api.delete(`/api/v1/groups/${group.id}/members/${bob.id}/`)).statusCode).toBe(204);
    const closed = await Promise.race([onTwo.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000))]);
    expect(closed?.code).toBe(4403);
  });
});

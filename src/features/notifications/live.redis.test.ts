import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChat, createGroup, createUser, type Instance, TestBrowser, twoInstances } from '../../../test/index.js';

// Two instances of the app on one database (a shared SQLite file, or PostgreSQL when
// DATABASE_URL names it), talking through Redis on a channel prefix of this run only.
const PATH = '/ws/notifications/';
let one: Instance;
let two: Instance;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ one, two, close } = await twoInstances());
});

afterAll(() => close());

async function session(instance: Instance, username: string) {
  const browser = new TestBrowser(instance.app);
  await browser.login(username);
  return { browser, sessionKey: browser.cookies.get('sessionid')! };
}

describe('two instances behind one Redis', () => {
  it('a notification added on instance 1 updates the bell of a socket on instance 2, and so does reading it', async () => {
    const alice = await createUser(one.database.db);
    const bob = await createUser(one.database.db);
    const group = await createGroup(one.database.db, alice, []);
    const a = await session(one, alice.username);
    const b = await session(two, bob.username);
    const bell = await connectChat(two.address, PATH, { sessionKey: b.sessionKey });
    await bell.waitFor((frame) => frame.type === 'unread');

    expect((await a.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: bob.username })).statusCode).toBe(302);
    const [, added] = await bell.waitFor((frame) => frame.type === 'unread', 2);
    expect(added!.count).toBe(1);

    // Read through instance 1: the socket on instance 2 hears it too.
    const b1 = await session(one, bob.username);
    expect((await b1.browser.post('/notifications/read/')).statusCode).toBe(302);
    const frames = await bell.waitFor((frame) => frame.type === 'unread', 3);
    expect(frames.map((frame) => frame.count)).toEqual([0, 1, 0]);
    bell.close();
  });

  it('closes the bell on instance 2 when its session logs out through instance 1', async () => {
    const bob = await createUser(one.database.db);
    const b = await session(one, bob.username);
    const bell = await connectChat(two.address, PATH, { sessionKey: b.sessionKey });
    expect((await b.browser.post('/accounts/logout/')).statusCode).toBe(302);
    const closed = await Promise.race([bell.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000))]);
    expect(closed?.code).toBe(4403);
  });
});

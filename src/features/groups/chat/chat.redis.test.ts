import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChat, createGroup, createUser, type Instance, REDIS_URL, TestBrowser, twoInstances } from '../../../../test/index.js';

// Two instances of the app on one database (a shared SQLite file, or PostgreSQL when
// DATABASE_URL names it), talking through Redis on a channel prefix of this run only.
let one: Instance;
let two: Instance;
let close: () => Promise<void>;
let prefix: string;

beforeAll(async () => {
  ({ one, two, close, prefix } = await twoInstances({ CHAT_RATE_PER_SECOND: '0' }));
});

afterAll(() => close());

async function memberSession(instance: Instance, username: string) {
  const browser = new TestBrowser(instance.app);
  await browser.login(username);
  return { browser, sessionKey: browser.cookies.get('sessionid')! };
}

async function setUp() {
  const alice = await createUser(one.database.db);
  const bob = await createUser(one.database.db);
  const group = await createGroup(one.database.db, alice, [bob]);
  const a = await memberSession(one, alice.username);
  const b = await memberSession(two, bob.username);
  const path = `/ws/groups/${group.id}/chat/`;
  const onOne = await connectChat(one.address, path, { sessionKey: a.sessionKey });
  const onTwo = await connectChat(two.address, path, { sessionKey: b.sessionKey });
  return { alice, bob, group, a, b, onOne, onTwo };
}

describe('two instances behind one Redis', () => {
  it('delivers a message sent on instance 1 to a member on instance 2, and back', async () => {
    const { alice, bob, onOne, onTwo } = await setUp();
    onOne.send({ content: 'hello from one' });
    const [arrived] = await onTwo.waitFor((frame) => frame.type === 'message');
    expect(arrived).toMatchObject({ author: alice.username, content: 'hello from one', message_id: expect.any(Number), timestamp: expect.any(String) });
    onTwo.send({ content: 'hello from two' });
    const received = await onOne.waitFor((frame) => frame.type === 'message', 2);
    expect(received.map((frame) => [frame.author, frame.content])).toEqual([
      [alice.username, 'hello from one'],
      [bob.username, 'hello from two'],
    ]);
    onOne.close();
    onTwo.close();
  });

  it("closes the removed member's socket on instance 2 within a second of the removal on instance 1", async () => {
    const { bob, group, a, onOne, onTwo } = await setUp();
    const started = Date.now();
    const response = await a.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: bob.id });
    expect(response.statusCode).toBe(302);
    const closed = await Promise.race([onTwo.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000))]);
    expect(closed?.code).toBe(4403);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(onOne.ws.readyState).toBe(onOne.ws.OPEN);
    onOne.close();
  });

  it('closes the socket on instance 2 when its session logs out through instance 1', async () => {
    const { bob, group } = await setUp();
    const b = await memberSession(one, bob.username);
    const onTwo = await connectChat(two.address, `/ws/groups/${group.id}/chat/`, { sessionKey: b.sessionKey });
    expect((await b.browser.post('/accounts/logout/')).statusCode).toBe(302);
    const closed = await Promise.race([onTwo.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000))]);
    expect(closed?.code).toBe(4403);
  });

  it('keeps local sockets working while Redis connections are lost, and reconnects', async () => {
    const { onOne, onTwo } = await setUp();
    const admin = new Redis(REDIS_URL);
    try {
      const clients = (await admin.client('LIST')) as string;
      const ours = clients.split('\n').filter((line) => line.includes(`name=hub:${prefix}`));
      expect(ours.length).toBe(4);
      for (const line of ours) await admin.client('KILL', 'ID', /id=(\d+)/.exec(line)![1]!);
    } finally {
      admin.disconnect();
    }
    // Local delivery does not wait for Redis.
    onOne.send({ content: 'while redis was away' });
    await onOne.waitFor((frame) => frame.content === 'while redis was away', 1, 500);
    // Reconnected within the back-off: cross-instance delivery resumes.
    await expect
      .poll(
        async () => {
          onOne.send({ content: 'after reconnect' });
          return onTwo.waitFor((frame) => frame.content === 'after reconnect', 1, 500).then(() => true, () => false);
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBe(true);
    onOne.close();
    onTwo.close();
  });
});

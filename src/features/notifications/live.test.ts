import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ChatClient, connectChat, createGroup, createTodoList, createUser, listen, loggedIn, refusedStatus, type TestApp } from '../../../test/index.js';
import { Notifications } from './notifications.js';

// The bell's live count over a real socket on a real listening server.

const PATH = '/ws/notifications/';
let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp();
  address = await listen(t.app);
});
afterAll(() => t.close());

async function member() {
  const { user, browser } = await loggedIn(t);
  return { user, browser, sessionKey: browser.cookies.get('sessionid')! };
}

const counts = (client: ChatClient) => client.frames.filter((frame) => frame.type === 'unread').map((frame) => frame.count);

/** Waits for the next count frame (the `n`th in all) and returns its count. */
async function nthCount(client: ChatClient, n: number): Promise<unknown> {
  const frames = await client.waitFor((frame) => frame.type === 'unread', n);
  return frames[n - 1]!.count;
}

describe('the handshake is refused with 403, never accepted', () => {
  it('without a session, or with one that does not exist', async () => {
    expect(await refusedStatus(address, PATH)).toBe(403);
    expect(await refusedStatus(address, PATH, { sessionKey: 'x'.repeat(32) })).toBe(403);
  });

  it('from a foreign or missing Origin', async () => {
    const { sessionKey } = await member();
    expect(await refusedStatus(address, PATH, { sessionKey, origin: 'https://evil.example' })).toBe(403);
    expect(await refusedStatus(address, PATH, { sessionKey, origin: null })).toBe(403);
  });

  it('past 20 open sockets of one user, with 429', async () => {
    const { sessionKey } = await member();
    const open = await Promise.all(Array.from({ length: 20 }, () => connectChat(address, PATH, { sessionKey })));
    expect(await refusedStatus(address, PATH, { sessionKey })).toBe(429);
    for (const client of open) client.close();
  });
});

describe('a connected bell', () => {
  it('hears its unread count on opening', async () => {
    const { user, sessionKey } = await member();
    await new Notifications(null).add(t.db, [user.id, user.id], { kind: 'test', text: 'hello' });
    await new Notifications(null).add(t.db, [user.id], { kind: 'test', text: 'again' });
    const client = await connectChat(address, PATH, { sessionKey });
    expect(await nthCount(client, 1)).toBe(2);
    client.close();
  });

  it('hears the new count when someone adds them to a group, and when they read it; nobody else hears', async () => {
    const alice = await member();
    const bob = await member();
    const group = await createGroup(t.db, alice.user, [], `Family ${alice.user.id}`);
    const bobBell = await connectChat(address, PATH, { sessionKey: bob.sessionKey });
    const aliceBell = await connectChat(address, PATH, { sessionKey: alice.sessionKey });
    expect(await nthCount(bobBell, 1)).toBe(0);
    expect(await nthCount(aliceBell, 1)).toBe(0);

    expect((await alice.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: bob.user.username })).statusCode).toBe(302);
    expect(await nthCount(bobBell, 2)).toBe(1);

    const list = await createTodoList(t.db, alice.user, { title: 'Weekend' });
    expect((await alice.browser.post(`/todo/${list.id}/share/`, { action: 'add', username: bob.user.username })).statusCode).toBe(302);
    expect(await nthCount(bobBell, 3)).toBe(2);

    const [first] = await t.db.selectFrom('notifications').select('id').where('user_id', '=', bob.user.id).orderBy('id').execute();
    expect((await bob.browser.post(`/notifications/${first!.id}/read/`)).statusCode).toBe(302);
    expect(await nthCount(bobBell, 4)).toBe(1);
    expect((await bob.browser.post('/notifications/read/')).statusCode).toBe(302);
    expect(await nthCount(bobBell, 5)).toBe(0);

    expect(counts(aliceBell)).toEqual([0]);
    bobBell.close();
    aliceBell.close();
  });

  it('reaches every open tab of the user', async () => {
    const alice = await member();
    const bob = await member();
    const group = await createGroup(t.db, alice.user, []);
    const tabs = [await connectChat(address, PATH, { sessionKey: bob.sessionKey }), await connectChat(address, PATH, { sessionKey: bob.sessionKey })];
    // Opened together, a tab may hear its count twice (the second tab's read can ask for both).
    for (const tab of tabs) await nthCount(tab, 1);
    await alice.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: bob.user.username });
    for (const tab of tabs) await tab.waitFor((frame) => frame.type === 'unread' && frame.count === 1);
    for (const tab of tabs) expect(new Set(counts(tab))).toEqual(new Set([0, 1]));
    for (const tab of tabs) tab.close();
  });

  it('is closed with 4403 when its session logs out', async () => {
    const { browser, sessionKey } = await member();
    const client = await connectChat(address, PATH, { sessionKey });
    await nthCount(client, 1);
    expect((await browser.post('/accounts/logout/')).statusCode).toBe(302);
    expect((await client.closed).code).toBe(4403);
  });

  it('is closed (1008) by a client that keeps sending frames, which it does not take', async () => {
    const { sessionKey } = await member();
    const client = await connectChat(address, PATH, { sessionKey });
    await nthCount(client, 1);
    for (let i = 0; i < 11; i += 1) client.send({ anything: i });
    expect((await client.closed).code).toBe(1008);
  });

  it('stays open through a few stray frames', async () => {
    const alice = await member();
    const bob = await member();
    const group = await createGroup(t.db, alice.user, []);
    const client = await connectChat(address, PATH, { sessionKey: bob.sessionKey });
    await nthCount(client, 1);
    client.send('hello?');
    await alice.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: bob.user.username });
    expect(await nthCount(client, 2)).toBe(1);
    client.close();
  });

  it('a user with no socket open is not counted for', async () => {
    const stranger = await createUser(t.db);
    const alice = await member();
    const group = await createGroup(t.db, alice.user, []);
    expect((await alice.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: stranger.username })).statusCode).toBe(302);
    expect((await t.db.selectFrom('notifications').select('id').where('user_id', '=', stranger.id).execute()).length).toBe(1);
  });
});

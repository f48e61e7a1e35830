import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addShoppingItem, connectChat, createShoppingList, createUser, type Instance, TestBrowser, twoInstances } from '../../../test/index.js';

// Two instances of the app on one database, talking through Redis (see chat.redis.test.ts).
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

const within = <T>(promise: Promise<T>, ms = 1000) => Promise.race([promise, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);

describe('a live shopping list across two instances behind one Redis', () => {
  it('sends a tick on instance 1 to the reader on instance 2, and closes that reader when its share is removed on 1', async () => {
    const owner = await createUser(one.database.db);
    const reader = await createUser(one.database.db);
    const list = await createShoppingList(one.database.db, owner, { sharedWith: [reader] });
    const item = await addShoppingItem(one.database.db, list, { name: 'Apples' });
    const o = await session(one, owner.username);
    const r = await session(two, reader.username);
    const onTwo = await connectChat(two.address, `/ws/shopping/${list.id}/`, { sessionKey: r.sessionKey });

    expect((await o.browser.post(`/shopping/items/${item.id}/toggle/`)).statusCode).toBe(302);
    const [frame] = await onTwo.waitFor((candidate) => candidate.type === 'item', 1, 1000);
    expect(frame).toMatchObject({ id: item.id, summary: { items: 1, open: 0 } });
    expect(frame!.html).not.toContain('/toggle/');

    expect((await o.browser.post(`/shopping/${list.id}/share/`, { username: reader.username, action: 'remove' })).statusCode).toBe(302);
    expect((await within(onTwo.closed))?.code).toBe(4403);
  });

  it('tells a reader and a tick user on instance 2 that the list was deleted on instance 1, then closes their sockets', async () => {
    const owner = await createUser(one.database.db);
    const reader = await createUser(one.database.db);
    const ticker = await createUser(one.database.db);
    const list = await createShoppingList(one.database.db, owner, { sharedWith: [reader], tickers: [ticker] });
    const o = await session(one, owner.username);
    const path = `/ws/shopping/${list.id}/`;
    const readerOnTwo = await connectChat(two.address, path, { sessionKey: (await session(two, reader.username)).sessionKey });
    const tickerOnTwo = await connectChat(two.address, path, { sessionKey: (await session(two, ticker.username)).sessionKey });

    expect((await o.browser.post(`/shopping/${list.id}/delete/`)).statusCode).toBe(302);
    for (const socket of [readerOnTwo, tickerOnTwo]) {
      expect((await within(socket.closed))?.code).toBe(4403);
      expect(socket.frames).toEqual([{ type: 'deleted' }]);
    }
  });

  it('closes the socket on instance 2 when its session logs out through instance 1', async () => {
    const owner = await createUser(one.database.db);
    const list = await createShoppingList(one.database.db, owner);
    const onOneSession = await session(one, owner.username);
    const onTwo = await connectChat(two.address, `/ws/shopping/${list.id}/`, { sessionKey: onOneSession.sessionKey });
    expect((await onOneSession.browser.post('/accounts/logout/')).statusCode).toBe(302);
    expect((await within(onTwo.closed))?.code).toBe(4403);
  });
});

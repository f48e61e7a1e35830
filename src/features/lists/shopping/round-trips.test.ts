import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShoppingList, User } from '../../../db/schema.js';
import { addShoppingItem, buildTestApp, createGroup, createShoppingList, createUser, loggedIn, QueryCounter, type TestApp, type TestBrowser } from '../../../../test/index.js';

// The round trips of shopping pages with what only they show: a store, unpriced items and a
// list of the caller's group (see ../round-trips.test.ts for the pages of both kinds).

let t: TestApp;
let browser: TestBrowser;
let friend: User;
let ownList: ShoppingList;
let groupList: ShoppingList;
const counter = new QueryCounter();

beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' }, counter.observe);
  const reader = await loggedIn(t);
  browser = reader.browser;
  friend = await createUser(t.db);
  const neighbour = await createUser(t.db);
  const group = await createGroup(t.db, neighbour, [reader.user], 'Flatmates');
  ownList = await createShoppingList(t.db, reader.user, { title: 'My shop', store_name: 'Corner', sharedWith: [friend, neighbour] });
  groupList = await createShoppingList(t.db, neighbour, { title: 'Flat shop', group });
  const sharedList = await createShoppingList(t.db, friend, { title: 'Friend shop', sharedWith: [reader.user] });
  for (let i = 0; i < 6; i += 1) {
    await addShoppingItem(t.db, ownList, { name: `apple ${i}`, is_bought: i % 2, estimated_price_cents: i === 0 ? null : 125 });
    await addShoppingItem(t.db, groupList, { name: `bread ${i}` });
    await addShoppingItem(t.db, sharedList, { name: `cheese ${i}` });
  }
  await browser.get('/shopping/');
});
afterAll(() => t.close());

describe('round trips per shopping page', () => {
  it('/shopping/ takes two queries with a store and a group\'s list: session, the lists with their counts', async () => {
    expect(await counter.forPage(browser, '/shopping/', 200, ['My shop', 'Flat shop', 'Friend shop', 'Corner · 3 to buy'])).toBe(2);
  });

  it('the owner\'s list page takes two queries with an unpriced item: session, the list with its items and who it is shared with', async () => {
    expect(await counter.forPage(browser, `/shopping/${ownList.id}/`, 200, ['apple 5', `Stop sharing with ${friend.username}`, 'one item has no price'])).toBe(2);
  });

  it('a list of the caller\'s group takes two queries: session, the list with its items', async () => {
    expect(await counter.forPage(browser, `/shopping/${groupList.id}/`, 200, ['bread 5', 'Flatmates'])).toBe(2);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShoppingList, User } from '../../db/schema.js';
import { type TestApp, type TestBrowser, buildTestApp, createGroup, createUser, loggedIn } from '../../../test/helpers.js';
import { addShoppingItem, createShoppingList } from '../../../test/lists.js';
import { QueryCounter } from '../../../test/query-count.js';

// Each statement is a round trip to the database (over the network on PostgreSQL), one after
// the other. These tests pin how many a shopping page makes, the session's included, so that a
// change adding one fails here (see notes/round-trips.test.ts).

let t: TestApp;
let browser: TestBrowser;
let friend: User;
let ownList: ShoppingList;
let groupList: ShoppingList;
let sharedList: ShoppingList;
let hiddenList: ShoppingList;
const counter = new QueryCounter();

beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' }, counter.observe);
  const reader = await loggedIn(t);
  browser = reader.browser;
  friend = await createUser(t.db);
  const [neighbour, stranger] = [await createUser(t.db), await createUser(t.db)];
  const group = await createGroup(t.db, neighbour, [reader.user], 'Flatmates');
  ownList = await createShoppingList(t.db, reader.user, { title: 'My shop', store_name: 'Corner', sharedWith: [friend, neighbour] });
  groupList = await createShoppingList(t.db, neighbour, { title: 'Flat shop', group });
  sharedList = await createShoppingList(t.db, friend, { title: 'Friend shop', sharedWith: [reader.user] });
  hiddenList = await createShoppingList(t.db, stranger, { title: 'Not yours' });
  for (let i = 0; i < 6; i += 1) {
    await addShoppingItem(t.db, ownList, { name: `apple ${i}`, is_bought: i % 2, estimated_price_cents: i === 0 ? null : 125 });
    await addShoppingItem(t.db, groupList, { name: `bread ${i}` });
    await addShoppingItem(t.db, sharedList, { name: `cheese ${i}` });
    await addShoppingItem(t.db, hiddenList, { name: `secret ${i}` });
  }
  await browser.get('/shopping/');
});
afterAll(() => t.close());

describe('round trips per shopping page', () => {
  it('/shopping/ takes two queries: session, the lists with their counts', async () => {
    expect(await counter.forPage(browser, '/shopping/', 200, ['My shop', 'Flat shop', 'Friend shop', 'Corner · 3 to buy'])).toBe(2);
  });

  it('the owner\'s list page takes two queries: session, the list with its items and who it is shared with', async () => {
    expect(await counter.forPage(browser, `/shopping/${ownList.id}/`, 200, ['apple 5', `Stop sharing with ${friend.username}`, 'one item has no price'])).toBe(2);
  });

  it('a list of the caller\'s group, or shared with the caller, takes two queries: session, the list with its items', async () => {
    expect(await counter.forPage(browser, `/shopping/${groupList.id}/`, 200, ['bread 5', 'Flatmates'])).toBe(2);
    expect(await counter.forPage(browser, `/shopping/${sharedList.id}/`, 200, ['cheese 5', friend.username])).toBe(2);
  });

  it('a list the caller may not see is the same 404 in as many queries', async () => {
    expect(await counter.forPage(browser, `/shopping/${hiddenList.id}/`, 404)).toBe(2);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../db/schema.js';
import { buildTestApp, createGroup, createNote, createShoppingList, createUser, loggedIn, QueryCounter, type TestApp, type TestBrowser } from '../../../test/index.js';

// Each statement is a round trip to the database (over the network on PostgreSQL), one after
// the other. These tests pin how many a group page makes, the session's included, so that a
// change adding one fails here (see notes/round-trips.test.ts).

let t: TestApp;
let browser: TestBrowser;
let friend: User;
let ownGroup: Group;
let friendsGroup: Group;
let hiddenGroup: Group;
const counter = new QueryCounter();

beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' }, counter.observe);
  const reader = await loggedIn(t);
  browser = reader.browser;
  friend = await createUser(t.db);
  const [neighbour, stranger] = [await createUser(t.db), await createUser(t.db)];
  ownGroup = await createGroup(t.db, reader.user, [friend, neighbour], 'Household');
  friendsGroup = await createGroup(t.db, friend, [reader.user], 'Book club');
  hiddenGroup = await createGroup(t.db, stranger, [neighbour], 'Not yours');
  await createNote(t.db, friend, { title: 'Shared recipe', group_id: ownGroup.id });
  await createShoppingList(t.db, reader.user, { title: 'Shared groceries', group: ownGroup });
  await browser.get('/groups/');
});
afterAll(() => t.close());

describe('round trips per group page', () => {
  it('/groups/ takes two queries: session, the groups with their owners and sizes', async () => {
    expect(await counter.forPage(browser, '/groups/', 200, ['Household', 'Book club'])).toBe(2);
  });

  it('a group page takes two queries, for its owner and for a member: session, the group with its members, activity and shared notes and lists', async () => {
    // The shared notes and lists are JSON columns of the group's statement (platform/groups/shared-objects.ts): no round trip of their own.
    expect(await counter.forPage(browser, `/groups/${ownGroup.id}/`, 200, ['3 members', `Remove<span class="visually-hidden"> ${friend.username}`, 'Shared recipe', 'Shared groceries'])).toBe(2);
    expect(await counter.forPage(browser, `/groups/${friendsGroup.id}/`, 200, ['2 members', friend.username, 'Leave this group'])).toBe(2);
  });

  it('a group the caller is not in is the same 404 in as many queries', async () => {
    expect(await counter.forPage(browser, `/groups/${hiddenGroup.id}/`, 404)).toBe(2);
  });
});

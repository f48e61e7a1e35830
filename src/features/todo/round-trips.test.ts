import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TodoList, User } from '../../db/schema.js';
import { type TestApp, type TestBrowser, buildTestApp, createUser, loggedIn } from '../../../test/helpers.js';
import { addTodoItem, createTodoList } from '../../../test/lists.js';
import { QueryCounter } from '../../../test/query-count.js';

// Each statement is a round trip to the database (over the network on PostgreSQL), one after
// the other. These tests pin how many a to-do page makes, the session's included, so that a
// change adding one fails here (see notes/round-trips.test.ts).

let t: TestApp;
let browser: TestBrowser;
let ownList: TodoList;
let sharedList: TodoList;
let hiddenList: TodoList;
let friend: User;
const counter = new QueryCounter();

beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' }, counter.observe);
  const reader = await loggedIn(t);
  browser = reader.browser;
  friend = await createUser(t.db);
  const [neighbour, stranger] = [await createUser(t.db), await createUser(t.db)];
  ownList = await createTodoList(t.db, reader.user, { title: 'My chores', sharedWith: [friend, neighbour] });
  sharedList = await createTodoList(t.db, friend, { title: 'Friend trip', sharedWith: [reader.user] });
  hiddenList = await createTodoList(t.db, stranger, { title: 'Not yours' });
  for (let i = 0; i < 6; i += 1) {
    await addTodoItem(t.db, ownList, { text: `chore ${i}`, is_done: i % 2, position: i });
    await addTodoItem(t.db, sharedList, { text: `pack ${i}`, position: i });
    await addTodoItem(t.db, hiddenList, { text: `secret ${i}` });
  }
  await browser.get('/todo/');
});
afterAll(() => t.close());

describe('round trips per to-do page', () => {
  it('/todo/ takes three queries: session, the lists with their counts, the items assigned to the caller', async () => {
    expect(await counter.forPage(browser, '/todo/', 200, ['My chores', 'Friend trip', '3 open of 6', 'Assigned to me'])).toBe(3);
  });

  it('the owner\'s list page takes two queries: session, the list with its items, who it is shared with and who may be assigned', async () => {
    expect(await counter.forPage(browser, `/todo/${ownList.id}/`, 200, ['chore 5', `Stop sharing with ${friend.username}`])).toBe(2);
  });

  it('a list shared with the caller takes two queries: session, the list with its items', async () => {
    expect(await counter.forPage(browser, `/todo/${sharedList.id}/`, 200, ['pack 5', 'only its owner can change it'])).toBe(2);
  });

  it('a list the caller may not see is the same 404 in as many queries', async () => {
    expect(await counter.forPage(browser, `/todo/${hiddenList.id}/`, 404)).toBe(2);
  });
});

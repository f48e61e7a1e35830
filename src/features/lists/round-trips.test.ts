import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createUser, LIST_KINDS, loggedIn, QueryCounter, type TestApp, type TestBrowser } from '../../../test/index.js';

// Each statement is a round trip to the database (over the network on PostgreSQL), one after
// the other. These tests pin how many a list page makes, the session's included, so that a
// change adding one fails here (see notes/round-trips.test.ts). A shopping list's group:
// shopping/round-trips.test.ts.

let t: TestApp;
const counter = new QueryCounter();

beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' }, counter.observe);
});
afterAll(() => t.close());

describe.each(LIST_KINDS)('round trips per $noun page', (kind) => {
  let browser: TestBrowser;
  let friend: User;
  const lists: Record<'own' | 'shared' | 'hidden', { id: number }> = {} as never;

  beforeAll(async () => {
    const reader = await loggedIn(t);
    browser = reader.browser;
    friend = await createUser(t.db);
    const [neighbour, stranger] = [await createUser(t.db), await createUser(t.db)];
    lists.own = await kind.createList(t.db, reader.user, { title: 'My list', sharedWith: [friend, neighbour] });
    lists.shared = await kind.createList(t.db, friend, { title: 'Friend list', sharedWith: [reader.user] });
    lists.hidden = await kind.createList(t.db, stranger, { title: 'Not yours' });
    for (let i = 0; i < 6; i += 1) {
      await kind.addItem(t.db, lists.own, { label: `chore ${i}`, done: i % 2 === 1, position: i });
      await kind.addItem(t.db, lists.shared, { label: `pack ${i}`, position: i });
      await kind.addItem(t.db, lists.hidden, { label: `secret ${i}` });
    }
    await browser.get(`${kind.base}/`);
  });

  it('the index takes one query for the session, one for the lists with their counts, and on the to-do index one for the items assigned to the caller', async () => {
    const shown = ['My list', 'Friend list', kind.openCount(3, 6), ...kind.index.sections];
    expect(await counter.forPage(browser, `${kind.base}/`, 200, shown)).toBe(kind.index.queries);
  });

  it('the owner\'s list page takes two queries: session, the list with its items, who it is shared with (and who may be assigned)', async () => {
    expect(await counter.forPage(browser, `${kind.base}/${lists.own.id}/`, 200, ['chore 5', `Stop sharing with ${friend.username}`])).toBe(2);
  });

  it('a list shared with the caller takes two queries: session, the list with its items', async () => {
    expect(await counter.forPage(browser, `${kind.base}/${lists.shared.id}/`, 200, ['pack 5', 'only its owner can change it', friend.username])).toBe(2);
  });

  it('a list the caller may not see is the same 404 in as many queries', async () => {
    expect(await counter.forPage(browser, `${kind.base}/${lists.hidden.id}/`, 404)).toBe(2);
  });
});

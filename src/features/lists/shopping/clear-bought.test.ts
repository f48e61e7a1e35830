import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../../db/schema.js';
import { addShoppingItem, buildTestApp, createGroup, createShoppingList, listTablesSnapshot, loggedIn, shoppingRows, type TestApp, TestBrowser } from '../../../../test/index.js';

// Clearing a shopping list's bought items is the owner's; anyone else gets the 404 of an absent
// list and nothing goes.

type Caller = { user: User; browser: TestBrowser };
type Role = 'tick user' | 'read user' | 'group member' | 'stranger';

let t: TestApp;
let owner: Caller;
let ticker: Caller;
let reader: Caller;
let member: Caller;
let stranger: Caller;
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  [owner, ticker, reader, member, stranger] = [await loggedIn(t), await loggedIn(t), await loggedIn(t), await loggedIn(t), await loggedIn(t)];
  group = await createGroup(t.db, owner.user, [member.user], 'Household');
});
afterAll(() => t.close());

const caller = (role: Role): Caller => ({ 'tick user': ticker, 'read user': reader, 'group member': member, stranger })[role];
const NOT_OWNER: Role[] = ['tick user', 'read user', 'group member', 'stranger'];

/** A list its group may tick, shared with a reader and a tick user, with an item to buy and one bought. */
async function scenario() {
  const list = await createShoppingList(t.db, owner.user, { title: 'Weekly', group, group_permission: 'tick', sharedWith: [reader.user], tickers: [ticker.user] });
  const item = await addShoppingItem(t.db, list, { name: 'Lemons', quantity_milli: 2000, estimated_price_cents: 30 });
  const bought = await addShoppingItem(t.db, list, { name: 'Milk', is_bought: 1 });
  return { list, item, bought };
}

describe('clearing bought items', () => {
  it('is the owner’s: a confirmation, then the bought items go and the rest stay', async () => {
    const { list, item, bought } = await scenario();
    const page = await owner.browser.get(`/shopping/${list.id}/clear-bought/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('The one bought item goes');
    const cleared = await owner.browser.post(`/shopping/${list.id}/clear-bought/`);
    expect([cleared.statusCode, cleared.headers.location]).toEqual([302, `/shopping/${list.id}/#live-list`]);
    expect(await shoppingRows(t.db).item(bought.id)).toBeUndefined();
    expect(await shoppingRows(t.db).item(item.id)).toBeDefined();
  });

  it('is refused (404) to everyone else, nothing deleted', async () => {
    for (const role of NOT_OWNER) {
      for (const send of [(path: string) => caller(role).browser.get(path), (path: string) => caller(role).browser.post(path)]) {
        const { list } = await scenario();
        const before = await listTablesSnapshot(t.db);
        expect((await send(`/shopping/${list.id}/clear-bought/`)).statusCode, role).toBe(404);
        expect(await listTablesSnapshot(t.db), role).toEqual(before);
      }
    }
  });
});

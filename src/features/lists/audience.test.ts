import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../db/schema.js';
import { buildTestApp, createGroup, createShoppingList, createTodoList, createUser, expectPanelAgreesWithRules, loggedIn, panelRows, type TestApp, type TestBrowser } from '../../../test/index.js';
import { listAccess } from './access.js';
import type { ListTables } from './kind.js';
import { listsRepository } from './repository.js';
import { SHOPPING } from './shopping/kind.js';
import { TODO } from './todo/kind.js';

// "Who can see this" on list pages is each kind's access queries (visibleLists, tickableLists,
// ownedLists) asked for every user: these tests ask them user by user, over a world with every
// role (owner, read share, tick share, group member with each group permission, a user who is
// both shared and a member, strangers), and hold the panel to the answers.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let reader: { user: User; browser: TestBrowser };
let ticker: User;
let memberOnly: User;
let sharedMember: User;
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t, { username: 'owen' });
  reader = await loggedIn(t, { username: 'rita' });
  ticker = await createUser(t.db, { username: 'tom' });
  memberOnly = await createUser(t.db, { username: 'greta' });
  sharedMember = await createUser(t.db, { username: 'bea' });
  await createUser(t.db, { username: 'stranger' });
  group = await createGroup(t.db, owner.user, [memberOnly, sharedMember], 'Flat');
  // A group of the reader's the lists are not in: no way in.
  await createGroup(t.db, reader.user, [ticker]);
});
afterAll(() => t.close());

const found = async (query: { executeTakeFirst(): Promise<unknown> }) => (await query.executeTakeFirst()) !== undefined;

async function shareWith(table: 'todo_list_shares' | 'shopping_list_shares', listId: number, user: User, permission: 'read' | 'tick') {
  await t.db.insertInto(table).values({ list_id: listId, user_id: user.id, permission }).execute();
}

/** Each kind's access queries for one list, as the panel's rules. */
function rulesOf(kind: ListTables, listId: number) {
  const access = listAccess(t.db, kind);
  const id = sql.ref<number>(`${kind.tables.lists}.id`);
  return {
    read: (userId: number) => found(access.visibleLists(userId).select(id.as('id')).where(id, '=', listId)),
    tick: (userId: number) => found(access.tickableLists(userId).select(id.as('id')).where(id, '=', listId)),
    change: (userId: number) => found(access.ownedLists(userId).select(id.as('id')).where(id, '=', listId)),
  };
}

/** Each kind: a list of the owner's in the group, and its panel as the reader's page reads it. */
const KINDS = [
  {
    noun: 'shopping list',
    kind: SHOPPING,
    shares: 'shopping_list_shares',
    create: (title: string) => createShoppingList(t.db, owner.user, { title, group }),
    panel: async (listId: number) => (await listsRepository(t.db, SHOPPING).findVisiblePage(reader.user.id, listId))!.audience,
  },
  {
    noun: 'to-do list',
    kind: TODO,
    shares: 'todo_list_shares',
    create: (title: string) => createTodoList(t.db, owner.user, { title, group }),
    panel: async (listId: number) => (await listsRepository(t.db, TODO).findVisiblePage(reader.user.id, listId))!.audience,
  },
] as const;

describe.each(KINDS)('who can see a $noun in a group', ({ kind, shares, create, panel: panelOf }) => {
  for (const groupPermission of ['read', 'tick'] as const) {
    it(`is exactly who the access queries admit, ranked by them, with the group's permission ${groupPermission}`, async () => {
      const list = await create(`List ${groupPermission}`);
      await t.db.updateTable(kind.tables.lists).set({ group_permission: groupPermission }).where('id', '=', list.id).execute();
      await shareWith(shares, list.id, reader.user, 'read');
      await shareWith(shares, list.id, ticker, 'tick');
      await shareWith(shares, list.id, sharedMember, 'read');
      const panel = await panelOf(list.id);
      await expectPanelAgreesWithRules(t.db, panel, rulesOf(kind, list.id));
      const groupRole = groupPermission === 'tick' ? 'tick' : 'read';
      expect(panel.map((person) => [person.username, person.role, person.via.join('+')])).toEqual([
        ['owen', 'change', 'owner+group'],
        ...[['bea', groupRole, 'share+group'], ['greta', groupRole, 'group'], ['rita', 'read', 'share'], ['tom', 'tick', 'share']]
          .sort((a, b) => ['change', 'tick', 'read'].indexOf(a[1]!) - ['change', 'tick', 'read'].indexOf(b[1]!)),
      ]);
    });
  }
});

describe('who can see a shopping list', () => {
  const shopping = () => listsRepository(t.db, SHOPPING);
  const rulesFor = (listId: number) => rulesOf(SHOPPING, listId);

  it('is shown on the page by name to the owner, to a reader as counts, and follows a share removed', async () => {
    const list = await createShoppingList(t.db, owner.user, { title: 'Shown', group });
    await shareWith('shopping_list_shares', list.id, reader.user, 'read');
    await shareWith('shopping_list_shares', list.id, ticker, 'tick');
    expect(panelRows((await owner.browser.get(`/shopping/${list.id}/`)).body)).toEqual(['owen: can change it', 'tom: can tick and add items', 'bea: can read', 'greta: can read', 'rita: can read']);
    expect(panelRows((await reader.browser.get(`/shopping/${list.id}/`)).body)).toEqual(['owen: can change it', '3 members of Flat: can read', 'Shared by name with 2 people: ', 'rita: can read']);
    await t.db.deleteFrom('shopping_list_shares').where('list_id', '=', list.id).where('user_id', '=', ticker.id).execute();
    expect(panelRows((await owner.browser.get(`/shopping/${list.id}/`)).body)).not.toContain('tom: can tick and add items');
    await expectPanelAgreesWithRules(t.db, (await shopping().findVisiblePage(owner.user.id, list.id))!.audience, rulesFor(list.id));
  });
});

describe('who can see a to-do list', () => {
  const todo = () => listsRepository(t.db, TODO);
  const rulesFor = (listId: number) => ({
    read: (userId: number) => found(todo().access.visibleLists(userId).select('todo_lists.id').where('todo_lists.id', '=', listId)),
    tick: (userId: number) => found(todo().access.tickableLists(userId).select('todo_lists.id').where('todo_lists.id', '=', listId)),
    change: (userId: number) => found(todo().access.ownedLists(userId).select('todo_lists.id').where('todo_lists.id', '=', listId)),
  });

  it('is exactly who the access queries admit: owner, tick share, read share; a group it is not in is no way in', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Chores' });
    await shareWith('todo_list_shares', list.id, reader.user, 'read');
    await shareWith('todo_list_shares', list.id, ticker, 'tick');
    const panel = (await todo().findVisiblePage(reader.user.id, list.id))!.audience;
    await expectPanelAgreesWithRules(t.db, panel, rulesFor(list.id));
    expect(panel.map((person) => [person.username, person.role])).toEqual([['owen', 'change'], ['tom', 'tick'], ['rita', 'read']]);
    expect(panelRows((await owner.browser.get(`/todo/${list.id}/`)).body)).toEqual(['owen: can change it', 'tom: can tick and add items', 'rita: can read']);
    expect(panelRows((await reader.browser.get(`/todo/${list.id}/`)).body)).toEqual(['owen: can change it', 'Shared by name with 2 people: ', 'rita: can read']);
  });

  it('names its group’s members on the page, by what the group may do, and follows a member who joins and leaves', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Family chores', group, group_permission: 'tick' });
    const onPage = async () => panelRows((await owner.browser.get(`/todo/${list.id}/`)).body);
    expect(await onPage()).toEqual(['owen: can change it', 'bea: can tick and add items', 'greta: can tick and add items']);
    const newcomer = await createUser(t.db, { username: 'nina' });
    await t.db.insertInto('group_members').values({ group_id: group.id, user_id: newcomer.id, joined_at: Date.now() }).execute();
    expect(await onPage()).toContain('nina: can tick and add items');
    await expectPanelAgreesWithRules(t.db, (await todo().findVisiblePage(owner.user.id, list.id))!.audience, rulesFor(list.id));
    await t.db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', newcomer.id).execute();
    expect(await onPage()).not.toContain('nina: can tick and add items');
  });

  it('is the owner alone for a list shared with nobody', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Private' });
    const panel = (await todo().findVisiblePage(owner.user.id, list.id))!.audience;
    await expectPanelAgreesWithRules(t.db, panel, rulesFor(list.id));
    expect(panel.map((person) => person.username)).toEqual(['owen']);
  });
});

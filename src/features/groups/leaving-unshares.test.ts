import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, Note, ShoppingItem, ShoppingList, TodoList, User } from '../../db/schema.js';
import {
  addShoppingItem,
  ApiClient,
  buildTestApp,
  createGroup,
  createNote,
  createShoppingList,
  createTodoList,
  loggedIn,
  results,
  type TestApp,
  type TestBrowser,
} from '../../../test/index.js';

// What a member shared with a group goes with them: once they leave, or the group's owner removes
// them (page or API), the group's members get the 404 of an absent object for their notes and
// lists of both kinds (pages, kept pages, the API) and cannot tick; what the member shared by name
// stays shared; the member can edit their note again; the group's activity says how many went.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

type Person = { user: User; browser: TestBrowser };

interface World {
  owner: Person;
  leaver: Person;
  member: Person;
  group: Group;
  note: Note;
  archived: Note;
  memberNote: Note;
  list: ShoppingList;
  item: ShoppingItem;
  sharedList: ShoppingList;
  todo: TodoList;
  groupTodo: TodoList;
}

let worlds = 0;

/** A group of three: the leaver shares two notes (one archived), two shopping lists (one of them also by name) and a to-do list with it, and another to-do list by name. */
async function world(): Promise<World> {
  worlds += 1;
  const owner = await loggedIn(t, { username: `ora${worlds}` });
  const leaver = await loggedIn(t, { username: `alice${worlds}` });
  const member = await loggedIn(t, { username: `max${worlds}` });
  const group = await createGroup(t.db, owner.user, [leaver.user, member.user], 'Flat');
  const note = await createNote(t.db, leaver.user, { title: 'Alice rota', group_id: group.id });
  const archived = await createNote(t.db, leaver.user, { title: 'Alice archive', group_id: group.id, is_archived: 1 });
  const memberNote = await createNote(t.db, member.user, { title: 'Max rota', group_id: group.id });
  const list = await createShoppingList(t.db, leaver.user, { title: 'Alice shop', group, group_permission: 'tick' });
  const item = await addShoppingItem(t.db, list, { name: 'Bread' });
  const sharedList = await createShoppingList(t.db, leaver.user, { title: 'Alice party', group, sharedWith: [member.user] });
  const todo = await createTodoList(t.db, leaver.user, { title: 'Alice chores', sharedWith: [member.user] });
  const groupTodo = await createTodoList(t.db, leaver.user, { title: 'Alice tasks', group, group_permission: 'tick' });
  return { owner, leaver, member, group, note, archived, memberNote, list, item, sharedList, todo, groupTodo };
}

const api = (person: Person) => new ApiClient(t.app, { browser: person.browser });

const ways: [string, (w: World) => Promise<number>, string][] = [
  ['leaves', async (w) => (await w.leaver.browser.post(`/groups/${w.group.id}/leave/`)).statusCode, 'left the group'],
  ['leaves through the API', async (w) => (await api(w.leaver).post(`/api/v1/groups/${w.group.id}/leave/`)).statusCode, 'left the group'],
  ['is removed on the group page', async (w) => (await w.owner.browser.post(`/groups/${w.group.id}/members/`, { action: 'remove', user_pk: String(w.leaver.user.id) })).statusCode, 'removed'],
  ['is removed through the API', async (w) => (await api(w.owner).delete(`/api/v1/groups/${w.group.id}/members/${w.leaver.user.id}/`)).statusCode, 'removed'],
];

/** The activity section's lines, as text, newest first. */
async function activityOf(browser: TestBrowser, groupId: number): Promise<string[]> {
  const page = await browser.get(`/groups/${groupId}/`);
  expect(page.statusCode).toBe(200);
  const section = /<section aria-labelledby="activity-heading">[\s\S]*?<\/section>/.exec(page.body)?.[0] ?? '';
  return [...section.matchAll(/<li><span>([\s\S]*?)<\/span>/g)].map((match) => match[1]!.replace(/<[^>]+>/g, ''));
}

const isDone = async (itemId: number) => (await t.db.selectFrom('shopping_items').select('is_done').where('id', '=', itemId).executeTakeFirstOrThrow()).is_done;

describe.each(ways)('when a member %s', (_, go, verb) => {
  it('the group\'s members get the 404 of an absent note and list, on pages, kept pages and the API, and cannot tick', async () => {
    const w = await world();
    // Allowed first: a member reads and ticks (the group may tick), and the pages are kept.
    for (const reader of [w.member, w.owner]) {
      expect((await reader.browser.get(`/notes/${w.note.id}/`)).statusCode).toBe(200);
      expect((await reader.browser.get('/notes/')).body).toContain('Alice rota');
      expect((await api(reader).get(`/api/v1/notes/${w.note.id}/`)).statusCode).toBe(200);
      expect((await reader.browser.get(`/shopping/${w.list.id}/`)).statusCode).toBe(200);
      expect((await api(reader).get(`/api/v1/shopping/${w.list.id}/`)).statusCode).toBe(200);
      expect((await reader.browser.get(`/todo/${w.groupTodo.id}/`)).statusCode).toBe(200);
    }
    expect((await w.member.browser.post(`/shopping/items/${w.item.id}/toggle/`)).statusCode).toBe(302);
    expect(await isDone(w.item.id)).toBe(1);

    expect([204, 302]).toContain(await go(w));

    for (const reader of [w.member, w.owner]) {
      expect((await reader.browser.get(`/notes/${w.note.id}/`)).statusCode).toBe(404);
      expect((await reader.browser.get(`/notes/${w.archived.id}/`)).statusCode).toBe(404);
      expect((await reader.browser.get('/notes/')).body).not.toContain('Alice rota');
      expect((await api(reader).get(`/api/v1/notes/${w.note.id}/`)).statusCode).toBe(404);
      expect(results(await api(reader).get('/api/v1/notes/')).map((note) => String(note.title))).not.toContain('Alice rota');
      expect((await reader.browser.get(`/shopping/${w.list.id}/`)).statusCode).toBe(404);
      expect((await api(reader).get(`/api/v1/shopping/${w.list.id}/`)).statusCode).toBe(404);
      expect((await reader.browser.get(`/todo/${w.groupTodo.id}/`)).statusCode).toBe(404);
      expect((await api(reader).get(`/api/v1/todo/${w.groupTodo.id}/`)).statusCode).toBe(404);
      const groupPage = (await reader.browser.get(`/groups/${w.group.id}/`)).body;
      expect(groupPage).not.toContain('Alice rota');
      expect(groupPage).not.toContain('Alice shop');
      expect(groupPage).not.toContain('Alice tasks');
    }
    expect((await w.member.browser.post(`/shopping/items/${w.item.id}/toggle/`)).statusCode).toBe(404);
    expect((await api(w.member).patch(`/api/v1/shopping/items/${w.item.id}/`, { is_bought: false })).statusCode).toBe(404);
    expect((await w.member.browser.post(`/shopping/${w.list.id}/items/add/`, { name: 'Sneaky' })).statusCode).toBe(404);
    expect(await isDone(w.item.id)).toBe(1);
    // What the others shared stays the group's.
    expect((await w.owner.browser.get(`/notes/${w.memberNote.id}/`)).statusCode).toBe(200);
  });

  it('what the member shared by name stays shared, and their note is theirs to edit again, on the page and through the API', async () => {
    const w = await world();
    expect([204, 302]).toContain(await go(w));
    // Shared by name with a member of the group: still theirs to read, though no longer the group's.
    expect((await w.member.browser.get(`/shopping/${w.sharedList.id}/`)).statusCode).toBe(200);
    expect((await w.member.browser.get(`/todo/${w.todo.id}/`)).statusCode).toBe(200);
    expect((await w.owner.browser.get(`/shopping/${w.sharedList.id}/`)).statusCode).toBe(404);

    expect((await w.leaver.browser.get(`/notes/${w.note.id}/`)).statusCode).toBe(200);
    const groups = await t.db.selectFrom('notes').select('group_id').where('id', 'in', [w.note.id, w.archived.id]).execute();
    expect(groups.map((row) => row.group_id)).toEqual([null, null]);
    const patched = await api(w.leaver).patch(`/api/v1/notes/${w.note.id}/`, { title: 'Alice rota, mine' });
    expect([patched.statusCode, patched.data.group]).toEqual([200, null]);
    const saved = await w.leaver.browser.post(`/notes/${w.note.id}/edit/`, { title: 'Alice rota again', content: '', group: '', priority: '0' });
    expect(saved.statusCode).toBe(302);
    expect((await api(w.leaver).get(`/api/v1/shopping/${w.list.id}/`)).data.group).toBeNull();
  });

  it('the group\'s activity says who went and how many of each kind went with them, to every member', async () => {
    const w = await world();
    expect([204, 302]).toContain(await go(w));
    const leaver = w.leaver.user.username;
    for (const reader of [w.member, w.owner]) {
      const [first, ...rest] = await activityOf(reader.browser, w.group.id);
      expect(first).toBe(verb === 'left the group' ? `${leaver} left the group` : `${w.owner.user.username} removed ${leaver}`);
      expect(rest.slice(0, 3).sort()).toEqual([
        `${leaver} no longer shares 2 notes with the group`,
        `${leaver} no longer shares 2 shopping lists with the group`,
        `${leaver} no longer shares a to-do list with the group`,
      ]);
    }
    const rows = await t.db.selectFrom('group_activity').select(['kind', 'object_kind', 'object_id', 'count']).where('group_id', '=', w.group.id).where('kind', '=', 'member.unshared').orderBy('object_kind').execute();
    expect(rows).toEqual([
      { kind: 'member.unshared', object_kind: 'note', object_id: null, count: 2 },
      { kind: 'member.unshared', object_kind: 'shopping', object_id: null, count: 2 },
      { kind: 'member.unshared', object_kind: 'todo', object_id: null, count: 1 },
    ]);
  });
});

describe('a member who shared nothing with the group', () => {
  it('leaves with only the line that they left', async () => {
    const owner = await loggedIn(t, { username: 'quiet_owner' });
    const quiet = await loggedIn(t, { username: 'quiet_one' });
    const group = await createGroup(t.db, owner.user, [quiet.user], 'Quiet');
    expect((await quiet.browser.post(`/groups/${group.id}/leave/`)).statusCode).toBe(302);
    expect(await activityOf(owner.browser, group.id)).toEqual(['quiet_one left the group']);
  });
});

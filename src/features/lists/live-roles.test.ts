import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createGroup, createShoppingList, createTodoList, createUser, type TestApp } from '../../../test/index.js';
import { rolesOn } from './live-roles.js';
import { listsRepository } from './repository.js';
import { SHOPPING } from './shopping/kind.js';
import { TODO } from './todo/kind.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the live sockets’ roles of many users in one query', () => {
  it('equal roleOf for the owner, tick and read shares, group members by the group permission, and strangers', async () => {
    const [owner, ticker, reader, member, stranger] = [await createUser(t.db), await createUser(t.db), await createUser(t.db), await createUser(t.db), await createUser(t.db)];
    const group = await createGroup(t.db, owner, [member]);
    const shopping = listsRepository(t.db, SHOPPING);
    const todo = listsRepository(t.db, TODO);
    const users = [owner, ticker, reader, member, stranger];
    for (const groupPermission of ['read', 'tick'] as const) {
      const list = await createShoppingList(t.db, owner, { group, sharedWith: [reader] });
      await t.db.updateTable('shopping_lists').set({ group_permission: groupPermission }).where('id', '=', list.id).execute();
      await t.db.insertInto('shopping_list_shares').values({ list_id: list.id, user_id: ticker.id, permission: 'tick' }).execute();
      const roles = await rolesOn(t.db, SHOPPING, shopping.access, list.id, users.map((user) => user.id));
      for (const user of users) expect(roles.get(user.id)).toBe(await shopping.roleOf(user.id, list.id));
      expect(users.map((user) => roles.get(user.id))).toEqual(['owner', 'tick', 'read', groupPermission, undefined]);
    }
    for (const groupPermission of ['read', 'tick', null] as const) {
      const list = await createTodoList(t.db, owner, { group: groupPermission === null ? null : group, group_permission: groupPermission ?? 'read', sharedWith: [reader] });
      await t.db.insertInto('todo_list_shares').values({ list_id: list.id, user_id: ticker.id, permission: 'tick' }).execute();
      const roles = await rolesOn(t.db, TODO, todo.access, list.id, users.map((user) => user.id));
      for (const user of users) expect(roles.get(user.id)).toBe(await todo.roleOf(user.id, list.id));
      // Outside a group its members are strangers.
      expect(users.map((user) => roles.get(user.id)), String(groupPermission)).toEqual(['owner', 'tick', 'read', groupPermission ?? undefined, undefined]);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFound } from '../../errors.js';
import { addShoppingItem, addTodoItem, buildTestApp, createShoppingList, createTodoList, createUser, listTablesSnapshot, type TestApp } from '../../../test/index.js';
import { ListService } from './service.js';
import { SHOPPING } from './shopping/kind.js';
import { TODO } from './todo/kind.js';

// The service guards every owner's change by itself, whatever its caller checked before:
// routes check ownership too, so these tests go to the services directly.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function setting() {
  const owner = await createUser(t.db);
  const reader = await createUser(t.db);
  const stranger = await createUser(t.db);
  const todoList = await createTodoList(t.db, owner, { sharedWith: [reader] });
  const todoItem = await addTodoItem(t.db, todoList);
  const shoppingList = await createShoppingList(t.db, owner, { sharedWith: [reader] });
  const shoppingItem = await addShoppingItem(t.db, shoppingList);
  return { owner, reader, stranger, todoList, todoItem, shoppingList, shoppingItem };
}

describe('owner’s changes through the list services', () => {
  it('let the owner add, toggle and delete items and share the list', async () => {
    const { owner, stranger, todoList, todoItem, shoppingList, shoppingItem } = await setting();
    const todo = new ListService(t.db, TODO);
    const shopping = new ListService(t.db, SHOPPING);

    await todo.addItem(owner.id, todoList.id, { text: 'Fold laundry', due_date: null, assignee: null });
    await shopping.addItem(owner.id, shoppingList.id, { name: 'Bread', quantity: 2000, unit: '', estimated_price: 250 });
    expect(await todo.toggleItem(owner.id, todoItem.id)).toBe(todoList.id);
    expect(await shopping.deleteItem(owner.id, shoppingItem.id)).toBe(shoppingList.id);
    expect((await todo.share(owner.id, todoList.id, { username: stranger.username, action: 'add' })).ok).toBe(true);

    const after = await listTablesSnapshot(t.db);
    expect(after.todo_items.filter((item) => item.list_id === todoList.id).map((item) => [item.text, item.is_done])).toEqual([
      ['Water the plants', 1],
      ['Fold laundry', 0],
    ]);
    expect(after.shopping_items.filter((item) => item.list_id === shoppingList.id).map((item) => item.name)).toEqual(['Bread']);
    expect(after.todo_list_shares.filter((share) => share.list_id === todoList.id)).toHaveLength(2);
  });

  it('refuse every change by a reader or a stranger with NotFound, and change nothing', async () => {
    const { reader, stranger, todoList, todoItem, shoppingList, shoppingItem } = await setting();
    const todo = new ListService(t.db, TODO);
    const shopping = new ListService(t.db, SHOPPING);
    const before = await listTablesSnapshot(t.db);

    for (const caller of [reader, stranger]) {
      // Functions, called one at a time: a promise made early could reject before anyone listens.
      const attempts: (() => Promise<unknown>)[] = [
        () => todo.addItem(caller.id, todoList.id, { text: 'Sneaky', due_date: null, assignee: null }),
        () => shopping.addItem(caller.id, shoppingList.id, { name: 'Sneaky', quantity: 1000, unit: '', estimated_price: null }),
        () => todo.toggleItem(caller.id, todoItem.id),
        () => shopping.toggleItem(caller.id, shoppingItem.id),
        () => todo.deleteItem(caller.id, todoItem.id),
        () => shopping.deleteItem(caller.id, shoppingItem.id),
        () => todo.share(caller.id, todoList.id, { username: stranger.username, action: 'add' }),
        () => shopping.delete(caller.id, shoppingList.id),
        () => todo.delete(caller.id, todoList.id),
      ];
      for (const attempt of attempts) await expect(attempt()).rejects.toBeInstanceOf(NotFound);
    }
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });
});

import type { Kysely } from 'kysely';
import type { Database, Group, SharePermission, ShoppingItem, ShoppingList, TodoItem, TodoList, User } from '../src/db/schema.js';

// Factories for to-do and shopping lists, and a snapshot to prove a refused change changed nothing.

export async function createTodoList(
  db: Kysely<Database>,
  owner: User,
  overrides: { title?: string; description?: string; sharedWith?: User[]; tickers?: User[] } = {},
): Promise<TodoList> {
  const now = Date.now();
  const list = await db
    .insertInto('todo_lists')
    .values({ owner_id: owner.id, title: overrides.title ?? 'Chores', description: overrides.description ?? '', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  for (const user of overrides.sharedWith ?? []) await db.insertInto('todo_list_shares').values({ list_id: list.id, user_id: user.id }).execute();
  for (const user of overrides.tickers ?? []) await db.insertInto('todo_list_shares').values({ list_id: list.id, user_id: user.id, permission: 'tick' }).execute();
  return list;
}

export async function addTodoItem(
  db: Kysely<Database>,
  list: TodoList,
  overrides: { text?: string; due_date?: string | null; is_done?: number; position?: number; assignee?: User } = {},
): Promise<TodoItem> {
  return db
    .insertInto('todo_items')
    .values({
      list_id: list.id,
      text: overrides.text ?? 'Water the plants',
      due_date: overrides.due_date ?? null,
      is_done: overrides.is_done ?? 0,
      position: overrides.position ?? 0,
      assignee_id: overrides.assignee?.id ?? null,
      created_at: Date.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function createShoppingList(
  db: Kysely<Database>,
  owner: User,
  overrides: { title?: string; store_name?: string; group?: Group | null; group_permission?: SharePermission; sharedWith?: User[]; tickers?: User[] } = {},
): Promise<ShoppingList> {
  const now = Date.now();
  const list = await db
    .insertInto('shopping_lists')
    .values({
      owner_id: owner.id,
      title: overrides.title ?? 'Weekly shop',
      store_name: overrides.store_name ?? '',
      group_id: overrides.group?.id ?? null,
      group_permission: overrides.group_permission ?? 'read',
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  for (const user of overrides.sharedWith ?? []) await db.insertInto('shopping_list_shares').values({ list_id: list.id, user_id: user.id }).execute();
  for (const user of overrides.tickers ?? []) await db.insertInto('shopping_list_shares').values({ list_id: list.id, user_id: user.id, permission: 'tick' }).execute();
  return list;
}

export async function addShoppingItem(
  db: Kysely<Database>,
  list: ShoppingList,
  overrides: { name?: string; quantity_milli?: number; unit?: string; estimated_price_cents?: number | null; is_bought?: number } = {},
): Promise<ShoppingItem> {
  return db
    .insertInto('shopping_items')
    .values({
      list_id: list.id,
      name: overrides.name ?? 'Milk',
      quantity_milli: overrides.quantity_milli ?? 1000,
      unit: overrides.unit ?? '',
      estimated_price_cents: overrides.estimated_price_cents === undefined ? 99 : overrides.estimated_price_cents,
      is_bought: overrides.is_bought ?? 0,
      created_at: Date.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Every row of every list table, in a stable order: equal snapshots mean nothing changed. */
export async function listTablesSnapshot(db: Kysely<Database>) {
  return {
    todo_lists: await db.selectFrom('todo_lists').selectAll().orderBy('id').execute(),
    todo_list_shares: await db.selectFrom('todo_list_shares').selectAll().orderBy('list_id').orderBy('user_id').execute(),
    todo_items: await db.selectFrom('todo_items').selectAll().orderBy('id').execute(),
    shopping_lists: await db.selectFrom('shopping_lists').selectAll().orderBy('id').execute(),
    shopping_list_shares: await db.selectFrom('shopping_list_shares').selectAll().orderBy('list_id').orderBy('user_id').execute(),
    shopping_items: await db.selectFrom('shopping_items').selectAll().orderBy('id').execute(),
  };
}

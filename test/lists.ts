import type { Kysely } from 'kysely';
import type { Database, Group, SharePermission, ShoppingItem, ShoppingList, TodoItem, TodoList, User } from '../src/db/schema.js';

// Factories for to-do and shopping lists, each kind's rows read and written by name (listRows),
// and a snapshot to prove a refused change changed nothing.


export async function createTodoList(
  db: Kysely<Database>,
  owner: User,
  overrides: { title?: string; description?: string; group?: Group | null; group_permission?: SharePermission; sharedWith?: User[]; tickers?: User[] } = {},
): Promise<TodoList> {
  const now = Date.now();
  const list = await db
    .insertInto('todo_lists')
    .values({
      owner_id: owner.id,
      title: overrides.title ?? 'Chores',
      description: overrides.description ?? '',
      group_id: overrides.group?.id ?? null,
      group_permission: overrides.group_permission ?? 'read',
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  for (const user of overrides.sharedWith ?? []) await db.insertInto('todo_list_shares').values({ list_id: list.id, user_id: user.id }).execute();
  for (const user of overrides.tickers ?? []) await db.insertInto('todo_list_shares').values({ list_id: list.id, user_id: user.id, permission: 'tick' }).execute();
  return list;
}

export async function addTodoItem(
  db: Kysely<Database>,
  list: Pick<TodoList, 'id'>,
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
  overrides: { title?: string; store_name?: string; group?: Group | null; group_permission?: SharePermission; currency?: string; sharedWith?: User[]; tickers?: User[] } = {},
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
      currency: overrides.currency ?? '',
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  for (const user of overrides.sharedWith ?? []) await db.insertInto('shopping_list_shares').values({ list_id: list.id, user_id: user.id }).execute();
  for (const user of overrides.tickers ?? []) await db.insertInto('shopping_list_shares').values({ list_id: list.id, user_id: user.id, permission: 'tick' }).execute();
  return list;
}

/** A shopping item; `is_bought` (1: bought) as the JSON API names it, stored in its done column. */
export async function addShoppingItem(
  db: Kysely<Database>,
  list: Pick<ShoppingList, 'id'>,
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
      // A shopping item's bought is the table's is_done (migration 0024).
      is_done: overrides.is_bought ?? 0,
      created_at: Date.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An item's done state under names of no kind: done (0 or 1), by whom, when (ms). */
export interface DoneState {
  done: number;
  by: number | null;
  at: number | null;
}

/** A list's share of one user. */
export interface ShareRow {
  user_id: number;
  permission: SharePermission;
}

/**
 * One kind's rows, for a test that sets up a state or checks what a request stored: the tests
 * name no list table or item column of their own.
 */
export interface ListRows<L extends { id: number; owner_id: number; title: string }, I extends { id: number; list_id: number; created_by: number | null }> {
  list(id: number): Promise<L | undefined>;
  /** The list created last. */
  newestList(): Promise<L>;
  /** The items of a list, in the order they were added. */
  items(listId: number): Promise<I[]>;
  item(id: number): Promise<I | undefined>;
  done(itemId: number): Promise<DoneState>;
  /** Says every item of the list was added and ticked by these users at `at`. */
  recordWho(listId: number, who: { createdBy: number; doneBy: number; at: number }): Promise<void>;
  /** A list's shares, by user id. */
  shares(listId: number): Promise<ShareRow[]>;
  share(listId: number, userId: number, permission: SharePermission): Promise<void>;
  unshare(listId: number, userId: number): Promise<void>;
  setUpdatedAt(listIds: number[], updatedAt: number): Promise<void>;
}

const doneState = (done: number, by: number | null, at: number | string | null): DoneState => ({ done, by, at: at === null ? null : Number(at) });

/** The tables of a kind of list: they share the columns these helpers name (migrations 0004, 0017, 0024). */
interface KindTables {
  lists: 'todo_lists' | 'shopping_lists';
  items: 'todo_items' | 'shopping_items';
  shares: 'todo_list_shares' | 'shopping_list_shares';
}

function listRows<L extends { id: number; owner_id: number; title: string }, I extends { id: number; list_id: number; created_by: number | null }>(db: Kysely<Database>, tables: KindTables): ListRows<L, I> {
  const { lists, items, shares } = tables;
  return {
    list: (id) => db.selectFrom(lists).selectAll().where('id', '=', id).$castTo<L>().executeTakeFirst(),
    newestList: () => db.selectFrom(lists).selectAll().orderBy('id', 'desc').$castTo<L>().executeTakeFirstOrThrow(),
    items: (listId) => db.selectFrom(items).selectAll().where('list_id', '=', listId).orderBy('id').$castTo<I>().execute(),
    item: (id) => db.selectFrom(items).selectAll().where('id', '=', id).$castTo<I>().executeTakeFirst(),
    async done(itemId) {
      const row = await db.selectFrom(items).select(['is_done', 'done_by', 'done_at']).where('id', '=', itemId).executeTakeFirstOrThrow();
      return doneState(row.is_done, row.done_by, row.done_at);
    },
    async recordWho(listId, { createdBy, doneBy, at }) {
      await db.updateTable(items).set({ created_by: createdBy, done_by: doneBy, done_at: at }).where('list_id', '=', listId).execute();
    },
    shares: (listId) => db.selectFrom(shares).select(['user_id', 'permission']).where('list_id', '=', listId).orderBy('user_id').execute(),
    async share(listId, userId, permission) {
      await db.insertInto(shares).values({ list_id: listId, user_id: userId, permission }).execute();
    },
    async unshare(listId, userId) {
      await db.deleteFrom(shares).where('list_id', '=', listId).where('user_id', '=', userId).execute();
    },
    async setUpdatedAt(listIds, updatedAt) {
      await db.updateTable(lists).set({ updated_at: updatedAt }).where('id', 'in', listIds).execute();
    },
  };
}

export const todoRows = (db: Kysely<Database>) => listRows<TodoList, TodoItem>(db, { lists: 'todo_lists', items: 'todo_items', shares: 'todo_list_shares' });

export const shoppingRows = (db: Kysely<Database>) => listRows<ShoppingList, ShoppingItem>(db, { lists: 'shopping_lists', items: 'shopping_items', shares: 'shopping_list_shares' });

/** The notifications a user was sent, as kind, text and link, oldest first. */
export async function notificationsOf(db: Kysely<Database>, user: Pick<User, 'id'>) {
  return db.selectFrom('notifications').select(['kind', 'text', 'link']).where('user_id', '=', user.id).orderBy('id').execute();
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

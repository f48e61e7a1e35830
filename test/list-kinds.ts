import type { Kysely } from 'kysely';
import type { Database, Group, SharePermission, User } from '../src/db/schema.js';
import { type ListRows, addShoppingItem, addTodoItem, createShoppingList, createTodoList, shoppingRows, todoRows } from './lists.js';

// The two kinds of list as the tests see them: one entry a kind, holding everything in which the
// kinds differ (paths, field names, words, sample forms and the rows they store), so that a test
// run for both with describe.each(LIST_KINDS) names no kind of its own.

type Form = Record<string, string>;

export interface ListKind {
  name: 'todo' | 'shopping';
  /** As in the tests' names. */
  noun: string;
  /** The pages' root (`/todo`), the API's and the live sockets'. */
  base: string;
  api: string;
  ws: string;
  /** The field naming an item, in forms, JSON and rows: a to-do's `text`, a shopping item's `name`. */
  label: 'text' | 'name';
  /** The list's second text field, in forms, JSON and rows. */
  detail: 'description' | 'store_name';
  /** The JSON API's fields of an item's done state (shopping keeps its own names there). */
  json: { done: 'is_done' | 'is_bought'; by: 'done_by' | 'bought_by'; at: 'done_at' | 'bought_at' };
  /** The pages' word for a ticked item: "done by ann", "bought by ann". */
  doneWord: 'done' | 'bought';
  /** The list's form with this title (and detail), every other field empty. */
  listForm(title: string, detail?: string): Form;
  /** A valid add form of an item with this label, every other field empty. */
  itemForm(label: string): Form;
  /** An add form that fails validation on more than the label. */
  invalidItemForm: Form;
  /** An item form whose label is fine and one other field is not: the fields and that field's name. */
  badItemField: { form: Form; field: string };
  /** A full add form (every field of the kind filled in) and what it stores, besides the done state. */
  itemSample: { form: Form; stored: Record<string, unknown> };
  /** A full item edit form and what it stores. */
  itemEdit: { form: Form; stored: Record<string, unknown> };
  /** A full API item body and the fields the API answers it with. */
  apiItemSample: { body: Record<string, unknown>; json: Record<string, unknown> };
  /** What an item added after the scenario's one stores besides its label: a to-do's place after it. */
  appended: Record<string, unknown>;
  /** The detail field's longest value and the message for a longer one. */
  detailMax: { length: number; message: string };
  /** An item label's message when too long. */
  labelMaxMessage: string;
  /** The message of an empty item label. */
  labelRequired: string;
  /** How a list form shows a typed detail again. */
  detailShown(value: string): string;
  /** How a page marks a ticked item's label. */
  struck(label: string): string;
  /** The index's words for a new user, and a new list's page words. */
  emptyIndex: string[];
  emptyList: string;
  /** The index's line of a list with open items: "3 open of 6", "3 to buy". */
  openCount(open: number, items: number): string;
  /**
   * What the index page reads in one request: its statements (the session's, the lists with their
   * counts, and on the to-do index the items assigned to the caller) and its sections besides the lists.
   */
  index: { queries: number; sections: string[] };
  /** The notification of a share. */
  sharedNotice(by: string, title: string): string;
  /** A list of the owner's; with `group`, its members read it (and tick it with `group_permission` `tick`). */
  createList(
    db: Kysely<Database>,
    owner: User,
    overrides?: { title?: string; detail?: string; group?: Group | null; group_permission?: SharePermission; sharedWith?: User[]; tickers?: User[] },
  ): Promise<{ id: number; title: string }>;
  /** `position` places a to-do item; shopping items keep the order they were added in. */
  addItem(db: Kysely<Database>, list: { id: number }, overrides?: { label?: string; done?: boolean; position?: number }): Promise<{ id: number }>;
  rows(db: Kysely<Database>): ListRows<{ id: number; owner_id: number; title: string }, { id: number; list_id: number; created_by: number | null }>;
}

export const TODO: ListKind = {
  name: 'todo',
  noun: 'to-do list',
  base: '/todo',
  api: '/api/v1/todo',
  ws: '/ws/todo',
  label: 'text',
  detail: 'description',
  json: { done: 'is_done', by: 'done_by', at: 'done_at' },
  doneWord: 'done',
  listForm: (title, detail = '') => ({ title, description: detail }),
  itemForm: (label) => ({ text: label, due_date: '' }),
  invalidItemForm: { text: '', due_date: 'not a date' },
  badItemField: { form: { due_date: '2030-02-30' }, field: 'due_date' },
  itemSample: { form: { text: 'Buy bulbs', due_date: '2030-05-01' }, stored: { text: 'Buy bulbs', due_date: '2030-05-01', position: 1 } },
  itemEdit: { form: { text: 'Fix both taps', due_date: '2030-01-02' }, stored: { text: 'Fix both taps', due_date: '2030-01-02' } },
  apiItemSample: { body: { text: 'Mow', due_date: '2031-06-30' }, json: { text: 'Mow', due_date: '2031-06-30' } },
  appended: { position: 1 },
  detailMax: { length: 2000, message: 'Descriptions have at most 2000 characters.' },
  labelMaxMessage: 'Items have at most 500 characters.',
  labelRequired: 'Enter what needs doing.',
  detailShown: (value) => `${value}</textarea>`,
  struck: (label) => `<del class="item-text">${label}</del>`,
  emptyIndex: ['Create your first to-do list', 'Nobody shares a to-do list with you yet'],
  emptyList: 'Nothing to do yet. Add the first item below.',
  openCount: (open, items) => `${open} open of ${items}`,
  index: { queries: 3, sections: ['Assigned to me'] },
  sharedNotice: (by, title) => `${by} shared the to-do list ${title} with you`,
  createList: (db, owner, { detail, ...overrides } = {}) => createTodoList(db, owner, { ...overrides, description: detail }),
  addItem: (db, list, { label, done, position } = {}) => addTodoItem(db, list, { text: label, is_done: done ? 1 : 0, position }),
  rows: todoRows,
};

export const SHOPPING: ListKind = {
  name: 'shopping',
  noun: 'shopping list',
  base: '/shopping',
  api: '/api/v1/shopping',
  ws: '/ws/shopping',
  label: 'name',
  detail: 'store_name',
  json: { done: 'is_bought', by: 'bought_by', at: 'bought_at' },
  doneWord: 'bought',
  listForm: (title, detail = '') => ({ title, store_name: detail, group: '' }),
  itemForm: (label) => ({ name: label, quantity: '1', unit: '', estimated_price: '1.00' }),
  invalidItemForm: { name: '', quantity: '-1', unit: '', estimated_price: 'x' },
  badItemField: { form: { quantity: 'abc' }, field: 'quantity' },
  itemSample: { form: { name: 'Flour', quantity: '1.5', unit: 'kg', estimated_price: '0.80' }, stored: { name: 'Flour', quantity_milli: 1500, unit: 'kg', estimated_price_cents: 80 } },
  itemEdit: { form: { name: 'Limes', quantity: '1,5', unit: 'kg', estimated_price: '2,49' }, stored: { name: 'Limes', quantity_milli: 1500, unit: 'kg', estimated_price_cents: 249 } },
  apiItemSample: { body: { name: 'Rice', quantity: 2.5, unit: 'kg', estimated_price: '0.10' }, json: { name: 'Rice', quantity: '2.5', unit: 'kg', estimated_price: '0.10' } },
  appended: {},
  detailMax: { length: 200, message: 'Store names have at most 200 characters.' },
  labelMaxMessage: 'Names have at most 200 characters.',
  labelRequired: 'Enter what to buy.',
  detailShown: (value) => `value="${value}"`,
  struck: (label) => `<del>${label}</del>`,
  emptyIndex: ['Create your first shopping list', 'Nobody shares a shopping list with you yet'],
  emptyList: 'The list is empty. Add the first thing to buy below.',
  openCount: (open) => `${open} to buy`,
  index: { queries: 2, sections: [] },
  sharedNotice: (by, title) => `${by} shared the shopping list ${title} with you`,
  createList: (db, owner, { detail, ...overrides } = {}) => createShoppingList(db, owner, { ...overrides, store_name: detail }),
  addItem: (db, list, { label, done } = {}) => addShoppingItem(db, list, { name: label, is_bought: done ? 1 : 0 }),
  rows: shoppingRows,
};

export const LIST_KINDS: ListKind[] = [TODO, SHOPPING];

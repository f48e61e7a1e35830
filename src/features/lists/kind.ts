import type { AliasableExpression, AliasedExpression, Expression, Kysely } from 'kysely';
import type { Database, SharePermission } from '../../db/schema.js';
import type { Message, MessageKey } from '../../platform/i18n/index.js';

// What a kind of list is, for the engine of this folder: its names, its tables and what its items
// hold. The engine (access, items, sharing, live sockets, API, pages) is written once for every
// kind; a kind's folder (todo/, shopping/) says only what differs, through this contract.
//
// The engine's statements are typed on the union of the kinds' tables, whose shared columns have
// the same names. Where a kind's own columns come in (the values its forms write, the rows its
// pages read), the engine casts at that one place, to the column names or the row type the kind
// declares here: the compiler checks each kind's values against its own table there.

/** The tables of the kinds. Where they mean the same their columns have the same names (migrations 0004, 0017, 0024, 0030). */
export type ListTable = 'todo_lists' | 'shopping_lists';
export type ItemTable = 'todo_items' | 'shopping_items';
export type ShareTable = 'todo_list_shares' | 'shopping_list_shares';

export type KindName = 'todo' | 'shopping';

/**
 * What the caller may do with a list: `owner` changes it, `tick` may also tick and add items (a
 * share or a list's group given that permission), `read` only reads it.
 */
export type ListRole = 'owner' | 'tick' | 'read';

/** A user id, or a column of them (`sql.ref('users.id')`), so one definition answers for many users. */
export type UserRef = number | Expression<number>;

/** The columns every list has. */
export interface ListRow {
  id: number;
  owner_id: number;
  title: string;
  created_at: number;
  updated_at: number;
}

/** An item as every kind's pages show it: the columns every item has, with the names of who added and ticked it. */
export interface ItemRow {
  id: number;
  list_id: number;
  is_done: number;
  created_at: number;
  created_by: number | null;
  done_by: number | null;
  done_at: number | null;
  created_by_name: string | null;
  done_by_name: string | null;
}

/** A column of a statement, as a kind names its own: an expression with its alias. */
export type Column = AliasedExpression<unknown, string>;

/** What the engine's statements need of a kind: its tables and its rules. */
export interface ListTables {
  name: KindName;
  tables: { lists: ListTable; items: ItemTable; shares: ShareTable };
  /**
   * Lists of this kind may belong to a group (both kinds, migrations 0004 and 0030): the group's
   * members read it, and tick it when its `group_permission` is `tick`. Its heading on the group page.
   */
  group?: { heading: MessageKey };
}

/** What a kind's items hold beyond ItemRow, and how its forms write them. */
export interface ItemSpec<Item extends ItemRow, ItemInput> {
  /** The item's own columns the pages read, on its table's row in the enclosing statement. */
  columns(db: Kysely<Database>): Column[];
  /** The order of a list's items on its page, as expressions on the item's row. */
  order(): Expression<unknown>[];
  /**
   * The same order as text (`data-order` on each row): a live update puts a changed row where the
   * page would after a reload by comparing these, as strings.
   */
  orderKey(item: Item): string;
  /**
   * The values of a new item, by column, for the one statement that checks the user may tick the
   * list and adds the item (`listId` a reference to the list's id in that statement).
   */
  insert(db: Kysely<Database>, input: ItemInput, list: { id: number; ref: Expression<number> }): Record<string, AliasableExpression<unknown>>;
  /** The values an owner's edit writes. */
  update(db: Kysely<Database>, input: ItemInput, listId: number): Record<string, unknown>;
  /**
   * The values of its own columns an item takes when it is opened again (unticked), as
   * expressions on its row before the change: a to-do item's due-date notices start over.
   */
  reopened?(): Record<string, Expression<unknown>>;
  /** The item in words, for labels and confirmations. */
  label(item: Item): string;
}

/** What a kind's lists hold beyond ListRow, and how its form writes them. */
export interface ListSpec<List, ListInput> {
  /** The columns its form writes, on insert and on update (the title among them); one it leaves out, an update keeps. */
  values(input: ListInput): Partial<List>;
  /**
   * A new list's values for columns its input may leave out, as expressions on its owner's row
   * (a shopping list's currency: its owner's); `values` wins where it gives the column.
   */
  insertDefaults?(db: Kysely<Database>, ownerId: number): Record<string, Expression<unknown>>;
  /** The columns of its own the pages read beside the list's row, on its table's row: its group's name, say. */
  columns?(db: Kysely<Database>): Column[];
  /** The columns of its own the API's collection reads beside them: the items a shopping list's total is made of, say. */
  apiColumns?(db: Kysely<Database>): Column[];
  /** Its page reads who may read the list (a to-do item may be given to one of them). */
  readers?: boolean;
}

/** How a group's members may use a list of a kind with groups, as its row says. */
export interface ListGroup {
  group_id: number | null;
  group_permission: SharePermission;
}

/** A kind of list: everything the engine needs of it, given by its folder (todo/kind.ts, shopping/kind.ts). */
export interface ListKind<List extends ListRow = ListRow, Item extends ItemRow = ItemRow, ListInput = unknown, ItemInput = unknown> extends ListTables {
  /** Its pages' prefix (`/todo`); its API's is `/api/v1` before it. */
  base: string;
  /** In English, for the API's descriptions: "to-do list", "To-do lists". */
  noun: string;
  plural: string;
  /** The kind in words for other features' cards, a catalogue key ("To-do list"). */
  cardLabel: MessageKey;
  /** Its link in every page's navigation, a catalogue key (`nav.todo`). */
  navigation: MessageKey;
  list: ListSpec<List, ListInput>;
  items: ItemSpec<Item, ItemInput>;
  /** The index's line under each list's title: the columns it is made of, on the list's row, and its words. */
  summary: {
    columns(db: Kysely<Database>): Column[];
    detail(row: Record<string, unknown>): Message;
  };
}

/** A number as text that sorts as the number does (ids and positions: never negative). */
export function orderPart(value: number): string {
  return String(value).padStart(15, '0');
}

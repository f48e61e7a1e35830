import type { Generated } from 'kysely';

// The tables of to-do and shopping lists, their items and their shares (migrations 0004, 0017, 0027, 0030):
// part of the Database of schema.ts, which re-exports them.

export interface TodoListsTable {
  id: Generated<number>;
  owner_id: number;
  title: string;
  description: Generated<string>;
  created_at: number;
  updated_at: number;
  /** Migration 0030: members of this group may read the list; null when the group is gone or none was chosen. */
  group_id: number | null;
  /** Migration 0030: what the group's members may do; meaningful only with a group. */
  group_permission: Generated<SharePermission>;
}

/** What a share (or a list's group) allows: `read`, or `tick` (also tick and add items). */
export type SharePermission = 'read' | 'tick';

/** Users a list is shared with; the same shape for both kinds of list. */
export interface ListSharesTable {
  list_id: number;
  user_id: number;
  /** Migration 0017; `read` for shares made before it. */
  permission: Generated<SharePermission>;
}

export interface TodoItemsTable {
  id: Generated<number>;
  list_id: number;
  text: string;
  /** A calendar date, `YYYY-MM-DD`, or null. */
  due_date: string | null;
  is_done: Generated<number>;
  position: number;
  created_at: number;
  /** Migration 0017: who added it, ticked it and when, who it is assigned to; null when unknown or deleted. */
  created_by: number | null;
  done_by: number | null;
  done_at: number | null;
  assignee_id: number | null;
  /** Migration 0029: the assignee last told "assigned to you" (features/lists/todo/notices.ts); null when none was. */
  assignee_told_id: number | null;
  /** Migration 0029: what was told of the due date: 0 nothing, 1 "due today", 2 "overdue". */
  due_notice: Generated<number>;
  /** Migration 0029: when the due-date scheduler looks at the item next, epoch ms; null: never. */
  due_notice_at: number | null;
}

export interface ShoppingListsTable {
  id: Generated<number>;
  owner_id: number;
  title: string;
  store_name: Generated<string>;
  /** Members of this group may read the list; null when the group is gone or none was chosen. */
  group_id: number | null;
  created_at: number;
  updated_at: number;
  /** Migration 0017: what the group's members may do; meaningful only with a group. */
  group_permission: Generated<SharePermission>;
  /** Migration 0027: what its prices are shown in to everyone who reads it (ISO 4217, '' for none). */
  currency: Generated<string>;
}

export interface ShoppingItemsTable {
  id: Generated<number>;
  list_id: number;
  name: string;
  /** Thousandths of a unit: 1.5 kg is 1500. Exact, no floating point. */
  quantity_milli: Generated<number>;
  unit: Generated<string>;
  /** Price of one unit in integer cents, or null when unknown. */
  estimated_price_cents: number | null;
  /** Bought (migration 0024 gave it the to-do items' name). */
  is_done: Generated<number>;
  created_at: number;
  /** Migration 0017: who added it, who bought it and when; null when unknown or deleted. */
  created_by: number | null;
  done_by: number | null;
  done_at: number | null;
}

import { msg } from '../../../platform/i18n/index.js';
import { z } from 'zod';
import type { SharedUser } from '../sharing.js';
import { donePatch, groupBody, groupJson, groupOut, isoTime, permission, shareCountJson, sharesJson, sharesOf, timestamp } from '../api-schemas.js';
import { isValidDueDate } from './dates.js';
import { DESCRIPTION_MAX, todoItemForm, todoListForm } from './forms.js';
import type { NamedList } from '../repository.js';
import type { TodoItemRow, TodoListRow } from './kind.js';

// The JSON of to-do lists and items: the form fields' names (forms.ts, with its messages), typed
// as JSON, plus id, owner and times.

export const todoItemJson = z.object({
  id: z.number().int(),
  list: z.number().int().describe('The id of the list it is on.'),
  text: z.string(),
  due_date: z.string().nullable().describe('A calendar date, YYYY-MM-DD, or null.'),
  is_done: z.boolean(),
  created_at: timestamp,
  created_by: z.string().nullable().describe('The username of who added it; null when unknown or deleted.'),
  done_by: z.string().nullable().describe('The username of who ticked it; null while open.'),
  done_at: timestamp.nullable().describe('When it was ticked; null while open.'),
  assignee: z.string().nullable().describe('The username of whom it is assigned to, or null.'),
});

export const todoListJson = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  ...groupJson,
  owner: z.string().describe('The username of its owner.'),
  shares: sharesJson,
  share_count: shareCountJson,
  created_at: timestamp,
  updated_at: timestamp,
});

export const todoListDetailJson = todoListJson.extend({
  items: z.array(todoItemJson).describe('Open items first, then done ones, each in the order they were added.'),
});

export type TodoListDetailJson = z.infer<typeof todoListDetailJson>;

const description = z.string().trim().max(DESCRIPTION_MAX, msg('todo.description_max'));

export const todoListBody = z
  .object({ title: todoListForm.shape.title, description: description.default(''), group: groupBody.default(null), group_permission: permission.default('read') })
  .strict();

/** Only the fields sent change. */
export const todoListPatch = z
  .object({ title: todoListForm.shape.title.optional(), description: description.optional(), group: groupBody.optional(), group_permission: permission.optional() })
  .strict();

export const todoItemBody = z
  .object({
    text: todoItemForm.shape.text,
    due_date: z
      .string({ error: msg('todo.due_type') })
      .trim()
      .nullable()
      .default(null)
      .refine((value) => value === null || value === '' || isValidDueDate(value), msg('todo.due_invalid'))
      .transform((value) => (value === '' ? null : value))
      .describe('YYYY-MM-DD, or null for none.'),
    assignee: z
      .string({ error: msg('todo.assignee_type') })
      .trim()
      .max(150, msg('lists.username_max'))
      .nullable()
      .default(null)
      .transform((value) => (value === '' ? null : value))
      .describe('The username of someone who may read the list, or null.'),
  })
  .strict();

export const todoItemPatch = donePatch('is_done');

export function todoItemOut(item: TodoItemRow): z.infer<typeof todoItemJson> {
  return {
    id: item.id,
    list: item.list_id,
    text: item.text,
    due_date: item.due_date,
    is_done: item.is_done === 1,
    created_at: isoTime(item.created_at),
    created_by: item.created_by_name,
    done_by: item.is_done === 1 ? item.done_by_name : null,
    done_at: item.is_done === 1 && item.done_at !== null ? isoTime(Number(item.done_at)) : null,
    assignee: item.assignee_name,
  };
}

export function todoListOut(list: NamedList<TodoListRow>, userId: number, sharedWith: SharedUser[]): z.infer<typeof todoListJson> {
  return {
    id: list.id,
    title: list.title,
    description: list.description,
    ...groupOut(list),
    owner: list.owner_name,
    shares: sharesOf(list, userId, sharedWith),
    share_count: Number(list.share_count),
    created_at: isoTime(list.created_at),
    updated_at: isoTime(list.updated_at),
  };
}

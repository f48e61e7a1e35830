import { z } from 'zod';
import type { TodoItem } from '../../db/schema.js';
import type { SharedUser } from '../lists-sharing/sharing.js';
import { isoTime, sharesJson, sharesOf, timestamp } from '../lists-sharing/api.js';
import { isValidDueDate } from './dates.js';
import { DESCRIPTION_MAX, todoItemForm, todoListForm } from './forms.js';
import type { TodoListWithOwner } from './repository.js';

// The JSON of to-do lists and items: the form fields' names (forms.ts, with its messages), typed
// as JSON, plus id, owner and times.

export const todoItemJson = z.object({
  id: z.number().int(),
  list: z.number().int().describe('The id of the list it is on.'),
  text: z.string(),
  due_date: z.string().nullable().describe('A calendar date, YYYY-MM-DD, or null.'),
  is_done: z.boolean(),
  created_at: timestamp,
});

export const todoListJson = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  owner: z.string().describe('The username of its owner.'),
  shares: sharesJson,
  created_at: timestamp,
  updated_at: timestamp,
});

export const todoListDetailJson = todoListJson.extend({
  items: z.array(todoItemJson).describe('Open items first, then done ones, each in the order they were added.'),
});

export type TodoListDetailJson = z.infer<typeof todoListDetailJson>;

const description = z.string().trim().max(DESCRIPTION_MAX, `Descriptions have at most ${DESCRIPTION_MAX} characters.`);

export const todoListBody = z.object({ title: todoListForm.shape.title, description: description.default('') }).strict();

/** Only the fields sent change. */
export const todoListPatch = z.object({ title: todoListForm.shape.title.optional(), description: description.optional() }).strict();

export const todoItemBody = z
  .object({
    text: todoItemForm.shape.text,
    due_date: z
      .string({ error: 'Enter a date as YYYY-MM-DD, or null.' })
      .trim()
      .nullable()
      .default(null)
      .refine((value) => value === null || value === '' || isValidDueDate(value), 'Enter a real date between 1900-01-01 and 2999-12-31, as YYYY-MM-DD.')
      .transform((value) => (value === '' ? null : value))
      .describe('YYYY-MM-DD, or null for none.'),
  })
  .strict();

export const todoItemPatch = z.object({ is_done: z.boolean({ error: 'Send true or false.' }) }).strict();

export function todoItemOut(item: Pick<TodoItem, 'id' | 'list_id' | 'text' | 'due_date' | 'is_done' | 'created_at'>): z.infer<typeof todoItemJson> {
  return { id: item.id, list: item.list_id, text: item.text, due_date: item.due_date, is_done: item.is_done === 1, created_at: isoTime(item.created_at) };
}

export function todoListOut(list: TodoListWithOwner, userId: number, sharedWith: SharedUser[]): z.infer<typeof todoListJson> {
  return {
    id: list.id,
    title: list.title,
    description: list.description,
    owner: list.owner_name,
    shares: sharesOf(list, userId, sharedWith),
    created_at: isoTime(list.created_at),
    updated_at: isoTime(list.updated_at),
  };
}

import { z } from 'zod';
import { msg } from '../../../platform/i18n/index.js';
import { listGroup, listGroupPermission, listTitle } from '../forms.js';
import { isValidDueDate } from './dates.js';

export const DESCRIPTION_MAX = 2000;
export const ITEM_TEXT_MAX = 500;

export const todoListForm = z.object({
  title: listTitle,
  description: z
    .string()
    .trim()
    .max(DESCRIPTION_MAX, msg('todo.description_max'))
    .optional()
    .default(''),
  /** One of the owner's groups, or none ('' or absent): a form without the field puts the list in no group. */
  group: listGroup,
  group_permission: listGroupPermission,
});

export type TodoListInput = z.infer<typeof todoListForm>;

export const todoItemForm = z.object({
  text: z
    .string({ error: msg('todo.text_required') })
    .trim()
    .min(1, msg('todo.text_required'))
    .max(ITEM_TEXT_MAX, msg('todo.text_max')),
  due_date: z
    .string()
    .trim()
    .optional()
    .default('')
    .refine((value) => value === '' || isValidDueDate(value), msg('todo.due_invalid'))
    .transform((value) => (value === '' ? null : value)),
  /** A username; that they may read the list is the service's check. */
  assignee: z
    .string()
    .trim()
    .max(150, msg('lists.username_max'))
    .optional()
    .default('')
    .transform((value) => (value === '' ? null : value)),
});

export type TodoItemInput = z.infer<typeof todoItemForm>;

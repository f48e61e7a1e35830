import { z } from 'zod';
import { isValidDueDate } from './dates.js';

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 2000;
export const ITEM_TEXT_MAX = 500;

export const todoListForm = z.object({
  title: z
    .string({ error: 'Enter a title.' })
    .trim()
    .min(1, 'Enter a title.')
    .max(TITLE_MAX, `Titles have at most ${TITLE_MAX} characters.`),
  description: z
    .string()
    .trim()
    .max(DESCRIPTION_MAX, `Descriptions have at most ${DESCRIPTION_MAX} characters.`)
    .optional()
    .default(''),
});

export type TodoListInput = z.infer<typeof todoListForm>;

export const todoItemForm = z.object({
  text: z
    .string({ error: 'Enter what needs doing.' })
    .trim()
    .min(1, 'Enter what needs doing.')
    .max(ITEM_TEXT_MAX, `Items have at most ${ITEM_TEXT_MAX} characters.`),
  due_date: z
    .string()
    .trim()
    .optional()
    .default('')
    .refine((value) => value === '' || isValidDueDate(value), 'Enter a real date between 1900-01-01 and 2999-12-31, as YYYY-MM-DD.')
    .transform((value) => (value === '' ? null : value)),
  /** A username; that they may read the list is the service's check. */
  assignee: z
    .string()
    .trim()
    .max(150, 'Usernames have at most 150 characters.')
    .optional()
    .default('')
    .transform((value) => (value === '' ? null : value)),
});

export type TodoItemInput = z.infer<typeof todoItemForm>;

import { z } from 'zod';
import { checkIdentityName } from '../../platform/identity-key.js';
import { colorField } from '../../platform/views/color.js';

export const DEFAULT_NOTEBOOK_COLOR = '#4f6d7a';

export const notebookForm = z.object({
  title: z
    .string({ error: 'This field is required.' })
    .trim()
    .min(1, 'This field is required.')
    .max(200, 'Titles have at most 200 characters.')
    .superRefine(checkIdentityName({ empty: 'Enter a title with at least one letter or digit.', tooLong: 'This title is too long.' })),
  description: z
    .string()
    .optional()
    .transform((value) => value?.trim() ?? '')
    .pipe(z.string().max(2000, 'Descriptions have at most 2,000 characters.')),
  color: colorField(DEFAULT_NOTEBOOK_COLOR),
});

export type NotebookForm = z.infer<typeof notebookForm>;

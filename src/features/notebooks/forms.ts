import { z } from 'zod';
import { checkIdentityName } from '../../platform/identity-key.js';
import { msg } from '../../platform/i18n/index.js';
import { colorField } from '../../platform/views/color.js';

export const DEFAULT_NOTEBOOK_COLOR = '#4f6d7a';

export const notebookForm = z.object({
  title: z
    .string({ error: msg('note_form.required') })
    .trim()
    .min(1, msg('note_form.required'))
    .max(200, msg('note_form.title_max'))
    .superRefine(checkIdentityName({ empty: msg('notebook_form.title_letters'), tooLong: msg('notebook_form.title_long') })),
  description: z
    .string()
    .optional()
    .transform((value) => value?.trim() ?? '')
    .pipe(z.string().max(2000, msg('notebook_form.description_max'))),
  color: colorField(DEFAULT_NOTEBOOK_COLOR),
});

export type NotebookForm = z.infer<typeof notebookForm>;

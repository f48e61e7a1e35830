import { z } from 'zod';
import { idListField, optionalIdField } from '../../platform/ids.js';

export const TITLE_MAX = 200;
export const CONTENT_MAX = 100_000;
export const PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'] as const;

/** An HTML checkbox: present ("on") when ticked, absent otherwise. */
const checkbox = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((raw) => {
    const value = [raw ?? ''].flat()[0]?.trim().toLowerCase() ?? '';
    return value === '' || value === '0' || value === 'false' || value === 'off' ? 0 : 1;
  });

export const noteForm = z.object({
  title: z
    .string({ error: 'This field is required.' })
    .trim()
    .min(1, 'This field is required.')
    .max(TITLE_MAX, `Titles have at most ${TITLE_MAX} characters.`),
  content: z
    .string({ error: 'Enter the note as text.' })
    .optional()
    .transform((value) => (value ?? '').replace(/\r\n?/g, '\n'))
    .pipe(z.string().max(CONTENT_MAX, `Notes have at most ${CONTENT_MAX.toLocaleString('en')} characters.`)),
  notebook: optionalIdField(),
  tags: idListField,
  group: optionalIdField(),
  priority: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? '0' : value.trim()))
    .pipe(z.enum(['0', '1', '2', '3'], { error: 'Choose a priority from Low to Urgent.' }))
    .transform(Number),
  is_pinned: checkbox,
  is_archived: checkbox,
});

export type NoteForm = z.infer<typeof noteForm>;

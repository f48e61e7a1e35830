import { z } from 'zod';
import { msg } from '../../platform/i18n/index.js';
import { idListField, optionalIdField } from '../../platform/ids.js';

export const TITLE_MAX = 200;
export const CONTENT_MAX = 100_000;
/** The priorities' names, 0 to 3, as catalogue keys. */
export const PRIORITIES = [msg('note.priority_low'), msg('note.priority_medium'), msg('note.priority_high'), msg('note.priority_urgent')] as const;

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
    .string({ error: msg('note_form.required') })
    .trim()
    .min(1, msg('note_form.required'))
    .max(TITLE_MAX, msg('note_form.title_max')),
  content: z
    .string({ error: msg('note_form.content_text') })
    .optional()
    .transform((value) => (value ?? '').replace(/\r\n?/g, '\n'))
    .pipe(z.string().max(CONTENT_MAX, msg('note_form.content_max'))),
  notebook: optionalIdField(),
  tags: idListField,
  group: optionalIdField(),
  priority: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? '0' : value.trim()))
    .pipe(z.enum(['0', '1', '2', '3'], { error: msg('note_form.priority') }))
    .transform(Number),
  is_pinned: checkbox,
  is_archived: checkbox,
});

export type NoteForm = z.infer<typeof noteForm>;

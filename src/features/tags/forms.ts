import { z } from 'zod';
import { checkIdentityName } from '../../platform/identity-key.js';
import { msg } from '../../platform/i18n/index.js';
import { colorField } from '../../platform/views/color.js';

export const DEFAULT_TAG_COLOR = '#6c757d';

export const tagForm = z.object({
  name: z
    .string({ error: msg('note_form.required') })
    .trim()
    .min(1, msg('note_form.required'))
    .max(50, msg('tag_form.name_max'))
    .superRefine(checkIdentityName({ empty: msg('note_form.required'), tooLong: msg('tag_form.name_long') })),
  color: colorField(DEFAULT_TAG_COLOR),
});

export type TagForm = z.infer<typeof tagForm>;

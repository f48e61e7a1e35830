import { z } from 'zod';
import { checkIdentityName } from '../../platform/identity-key.js';
import { colorField } from '../../platform/views/color.js';

export const DEFAULT_TAG_COLOR = '#6c757d';

export const tagForm = z.object({
  name: z
    .string({ error: 'This field is required.' })
    .trim()
    .min(1, 'This field is required.')
    .max(50, 'Tag names have at most 50 characters.')
    .superRefine(checkIdentityName({ empty: 'This field is required.', tooLong: 'That tag name is too long.' })),
  color: colorField(DEFAULT_TAG_COLOR),
});

export type TagForm = z.infer<typeof tagForm>;

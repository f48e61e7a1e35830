import { z } from 'zod';
import { parseId } from '../../platform/ids.js';
import { permissionField } from '../lists-sharing/sharing.js';
import { type Parsed, parseMoney, parseQuantity } from './money.js';

export const TITLE_MAX = 200;
export const STORE_MAX = 200;
export const NAME_MAX = 200;
export const UNIT_MAX = 30;

/** A decimal text field turned into its exact integer by `parse`, or a form error. */
function decimal<Empty extends number | null>(parse: (text: string) => Parsed, whenEmpty: Empty) {
  return z
    .string()
    .trim()
    .optional()
    .default('')
    .transform((text, ctx): number | Empty => {
      if (text === '') return whenEmpty;
      const parsed = parse(text);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    });
}

export const shoppingListForm = z.object({
  title: z
    .string({ error: 'Enter a title.' })
    .trim()
    .min(1, 'Enter a title.')
    .max(TITLE_MAX, `Titles have at most ${TITLE_MAX} characters.`),
  store_name: z.string().trim().max(STORE_MAX, `Store names have at most ${STORE_MAX} characters.`).optional().default(''),
  // Only the shape here; that the owner belongs to the group is the service's check.
  group: z
    .string()
    .trim()
    .optional()
    .default('')
    .transform((text, ctx) => {
      if (text === '') return null;
      const id = parseId(text);
      if (id !== null) return id;
      ctx.addIssue({ code: 'custom', message: 'Choose one of your groups, or none.' });
      return z.NEVER;
    }),
  /** What the group's members may do; kept without a group, where it means nothing. */
  group_permission: permissionField.optional().default('read'),
});

export type ShoppingListInput = z.infer<typeof shoppingListForm>;

export const shoppingItemForm = z.object({
  name: z
    .string({ error: 'Enter what to buy.' })
    .trim()
    .min(1, 'Enter what to buy.')
    .max(NAME_MAX, `Names have at most ${NAME_MAX} characters.`),
  /** Empty means one. */
  quantity: decimal(parseQuantity, 1000),
  unit: z.string().trim().max(UNIT_MAX, `Units have at most ${UNIT_MAX} characters.`).optional().default(''),
  /** Empty means no estimate. */
  estimated_price: decimal(parseMoney, null),
});

export type ShoppingItemInput = z.infer<typeof shoppingItemForm>;

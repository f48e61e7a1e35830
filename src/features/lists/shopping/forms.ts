import { z } from 'zod';
import { msg } from '../../../platform/i18n/index.js';
import { isCurrency } from '../../accounts/index.js';
import { type Parsed, parseMoney, parseQuantity } from './money.js';
import { listGroup, listGroupPermission, listTitle } from '../forms.js';

export const STORE_MAX = 200;
export const NAME_MAX = 200;
export const UNIT_MAX = 30;

/** A decimal text field, typed as `language` writes numbers, turned into its exact integer by `parse`, or a form error. */
function decimal<Empty extends number | null>(parse: (text: string, language: string) => Parsed, whenEmpty: Empty, language: string) {
  return z
    .string()
    .trim()
    .optional()
    .default('')
    .transform((text, ctx): number | Empty => {
      if (text === '') return whenEmpty;
      const parsed = parse(text, language);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    });
}

/** A list's currency: an ISO 4217 code of the account page's choices, or '' for none. */
export const listCurrency = z.string().trim().refine(isCurrency, msg('form.currency_invalid'));

export const shoppingListForm = z.object({
  title: listTitle,
  store_name: z.string().trim().max(STORE_MAX, msg('shopping.store_max')).optional().default(''),
  group: listGroup,
  group_permission: listGroupPermission,
  /** What its prices are shown in to every reader (the account page's choices). Absent: a new list takes its owner's, an edit keeps the list's. */
  currency: listCurrency.optional(),
});

export type ShoppingListInput = z.infer<typeof shoppingListForm>;

export const itemName = z
  .string({ error: msg('shopping.name_required') })
  .trim()
  .min(1, msg('shopping.name_required'))
  .max(NAME_MAX, msg('shopping.name_max'));

export const itemUnit = z.string().trim().max(UNIT_MAX, msg('shopping.unit_max'));

function itemFormIn(language: string) {
  return z.object({
    name: itemName,
    /** Empty means one. */
    quantity: decimal(parseQuantity, 1000, language),
    unit: itemUnit.optional().default(''),
    /** Empty means no estimate. */
    estimated_price: decimal(parseMoney, null, language),
  });
}

const itemForms = new Map<string, ReturnType<typeof itemFormIn>>();

/** The item form, its numbers read as `language` types them (`1,5` in Ukrainian): one schema per language. */
export function shoppingItemForm(language: string): ReturnType<typeof itemFormIn> {
  let form = itemForms.get(language);
  if (!form) itemForms.set(language, (form = itemFormIn(language)));
  return form;
}

export type ShoppingItemInput = z.infer<ReturnType<typeof itemFormIn>>;

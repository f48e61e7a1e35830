import { z } from 'zod';
import { donePatch, groupBody, groupJson, groupOut, isoTime, permission, shareCountJson, sharesJson, sharesOf, timestamp } from '../api-schemas.js';
import type { NamedList } from '../repository.js';
import type { SharedUser } from '../sharing.js';
import { CURRENCIES } from '../../accounts/index.js';
import { STORE_MAX, itemName, itemUnit, listCurrency, shoppingListForm } from './forms.js';
import { msg } from '../../../platform/i18n/index.js';
import { type Parsed, estimatedTotal, formatCents, formatQuantity, parseMoney, parseQuantity } from './money.js';
import type { ShoppingItemPrice, ShoppingItemRow, ShoppingListRow } from './kind.js';

// The JSON of shopping lists and items: the form fields' names (forms.ts, with its messages).
// Prices and quantities are exact decimal text ("2.49", "1.5"), as the forms take them, never
// binary floating point; a JSON number is accepted on the way in and read as its decimal text.

const decimalText = z.string().describe('Exact decimal text.');

export const shoppingItemJson = z.object({
  id: z.number().int(),
  list: z.number().int().describe('The id of the list it is on.'),
  name: z.string(),
  quantity: decimalText,
  unit: z.string(),
  estimated_price: decimalText.nullable().describe('The price of one unit, or null when unknown.'),
  is_bought: z.boolean(),
  created_at: timestamp,
  created_by: z.string().nullable().describe('The username of who added it; null when unknown or deleted.'),
  bought_by: z.string().nullable().describe('The username of who bought it; null while still to buy.'),
  bought_at: timestamp.nullable().describe('When it was bought; null while still to buy.'),
});

export const shoppingListJson = z.object({
  id: z.number().int(),
  title: z.string(),
  store_name: z.string(),
  ...groupJson,
  currency: z.string().describe('What its prices are in, for everyone who reads it: an ISO 4217 code, or "" for none.'),
  owner: z.string().describe('The username of its owner.'),
  shares: sharesJson,
  share_count: shareCountJson,
  estimated_total: decimalText.describe('Price times quantity over the items not yet bought, rounded to a cent.'),
  unpriced_items: z.number().int().describe('Items not yet bought without a price, left out of the total.'),
  created_at: timestamp,
  updated_at: timestamp,
});

export const shoppingListDetailJson = shoppingListJson.extend({
  items: z.array(shoppingItemJson).describe('Items still to buy first, then bought ones, each in the order they were added.'),
});

export type ShoppingListDetailJson = z.infer<typeof shoppingListDetailJson>;

const group = groupBody;
const storeName = z.string().trim().max(STORE_MAX, msg('shopping.store_max'));
const CURRENCY_CHOICES = `One of ${CURRENCIES.join(', ')}, or "" for none`;

export const shoppingListBody = z
  .object({
    title: shoppingListForm.shape.title,
    store_name: storeName.default(''),
    group: group.default(null),
    group_permission: permission.default('read'),
    currency: listCurrency.optional().describe(`${CURRENCY_CHOICES}; your own currency when absent.`),
  })
  .strict();

/** Only the fields sent change. */
export const shoppingListPatch = z
  .object({ title: shoppingListForm.shape.title.optional(), store_name: storeName.optional(), group: group.optional(), group_permission: permission.optional(), currency: listCurrency.optional().describe(`${CURRENCY_CHOICES}.`) })
  .strict();

/** A decimal as text or a JSON number, parsed exactly by `parse`; absent, null or '' is `whenEmpty`. */
function decimal<Empty extends number | null>(parse: (text: string) => Parsed, whenEmpty: Empty) {
  return z
    .union([z.string(), z.number()], { error: msg('shopping.number_type') })
    .nullable()
    .optional()
    .transform((value, ctx): number | Empty => {
      const text = value === null || value === undefined ? '' : String(value).trim();
      if (text === '') return whenEmpty;
      const parsed = parse(text);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    });
}

export const shoppingItemBody = z
  .object({
    name: itemName,
    quantity: decimal(parseQuantity, 1000).describe('How many, more than zero, up to 3 decimal places; 1 when absent.'),
    unit: itemUnit.default(''),
    estimated_price: decimal(parseMoney, null).describe('The price of one unit, up to 2 decimal places, or null.'),
  })
  .strict();

export const shoppingItemPatch = donePatch('is_bought');

export function shoppingItemOut(item: ShoppingItemRow): z.infer<typeof shoppingItemJson> {
  const bought = item.is_done === 1;
  return {
    id: item.id,
    list: item.list_id,
    name: item.name,
    quantity: formatQuantity(item.quantity_milli),
    unit: item.unit,
    estimated_price: item.estimated_price_cents === null ? null : formatCents(item.estimated_price_cents),
    is_bought: bought,
    created_at: isoTime(item.created_at),
    created_by: item.created_by_name,
    bought_by: bought ? item.done_by_name : null,
    bought_at: bought && item.done_at !== null ? isoTime(Number(item.done_at)) : null,
  };
}

/** The list without its items; `priced` holds at least every item not yet bought (the total's part). */
export function shoppingListOut(list: NamedList<ShoppingListRow>, userId: number, sharedWith: SharedUser[], priced: ShoppingItemPrice[]): z.infer<typeof shoppingListJson> {
  const total = estimatedTotal(priced);
  return {
    id: list.id,
    title: list.title,
    store_name: list.store_name,
    ...groupOut(list),
    currency: list.currency,
    owner: list.owner_name,
    shares: sharesOf(list, userId, sharedWith),
    share_count: Number(list.share_count),
    estimated_total: formatCents(total.cents),
    unpriced_items: total.unpriced,
    created_at: isoTime(list.created_at),
    updated_at: isoTime(list.updated_at),
  };
}

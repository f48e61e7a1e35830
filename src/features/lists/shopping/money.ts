import { type MessageKey, translator } from '../../../platform/i18n/index.js';
import { localeOf } from '../../../platform/time-zones.js';

// Money and quantities are kept as integers and parsed from decimal text digit by digit, never
// through floating point: 0.10 + 0.20 is exactly 0.30 here. Typed numbers are read the way the
// page's language writes them (a comma is Ukrainian's decimal mark); shown through Intl.

/** A parsed number, or why not: `error` for a form (a catalogue key), `message` in English for logs. */
export type Parsed = { ok: true; value: number } | { ok: false; error: MessageKey; message: string };

/** The largest price accepted: 1,000,000.00 (in cents). */
export const MAX_PRICE_CENTS = 100_000_000;
/** The largest quantity accepted: 1,000,000 (in thousandths), well inside a 32-bit integer column. */
export const MAX_QUANTITY_MILLI = 1_000_000_000;

/** Languages whose decimal mark is a comma, which never groups thousands there. */
const COMMA_DECIMAL = new Set(['uk']);

/**
 * The decimal mark of `text` made a dot. In Ukrainian a single comma is the decimal mark (`1,5`,
 * `2,99`, and `1,500` is 1.5). Elsewhere a comma is read as the decimal mark only where it cannot
 * be a thousands separator: one comma, digits before it, one or two digits after it and no dot
 * (`1,5` and `2,49`, but never `1,500`, which stays refused as ambiguous).
 */
export function decimalComma(text: string, language = 'en'): string {
  if (COMMA_DECIMAL.has(language)) return /^-?\d*,\d+$/.test(text) ? text.replace(',', '.') : text;
  return /^-?\d+,\d{1,2}$/.test(text) ? text.replace(',', '.') : text;
}

/** `12`, `12.5`, `12.50`, `.5` (as `language` writes them) -> integer count of 1/10^places units; null if not such a number. */
function parseDecimal(text: string, places: number): number | null {
  const match = new RegExp(`^(\\d{0,10})(?:\\.(\\d{1,${places}}))?$`).exec(text);
  if (!match || (match[1] === '' && match[2] === undefined)) return null;
  const whole = Number(match[1] || '0');
  const fraction = Number((match[2] ?? '').padEnd(places, '0') || '0');
  return whole * 10 ** places + fraction;
}

type Problem = 'negative' | 'max' | 'places' | 'invalid';

function problem(text: string, places: number): Problem {
  if (text.startsWith('-')) return 'negative';
  if (/^\d{11,}(\.\d*)?$/.test(text)) return 'max';
  if (new RegExp(`^\\d*\\.\\d{${places + 1},}$`).test(text)) return 'places';
  return 'invalid';
}

const PRICE_PROBLEMS = {
  negative: 'shopping.price_negative',
  max: 'shopping.price_max',
  places: 'shopping.price_places',
  invalid: 'shopping.price_invalid',
} as const satisfies Record<Problem, MessageKey>;

const QUANTITY_PROBLEMS = {
  negative: 'shopping.quantity_negative',
  max: 'shopping.quantity_max',
  places: 'shopping.quantity_places',
  invalid: 'shopping.quantity_invalid',
} as const satisfies Record<Problem, MessageKey>;

function refused(key: MessageKey): Parsed {
  return { ok: false, error: key, message: translator('en').t(key) };
}

/** A price like `2.49` (`2,49` in Ukrainian) -> 249 cents. */
export function parseMoney(given: string, language = 'en'): Parsed {
  const text = decimalComma(given, language);
  const cents = parseDecimal(text, 2);
  if (cents === null) return refused(PRICE_PROBLEMS[problem(text, 2)]);
  if (cents > MAX_PRICE_CENTS) return refused('shopping.price_max');
  return { ok: true, value: cents };
}

/** A quantity like `1.5` (`1,5` in Ukrainian) -> 1500 thousandths; it must be more than zero. */
export function parseQuantity(given: string, language = 'en'): Parsed {
  const text = decimalComma(given, language);
  const milli = parseDecimal(text, 3);
  if (milli === null) return refused(QUANTITY_PROBLEMS[problem(text, 3)]);
  if (milli === 0) return refused('shopping.quantity_zero');
  if (milli > MAX_QUANTITY_MILLI) return refused('shopping.quantity_max');
  return { ok: true, value: milli };
}

/** 30 -> `0.30`, 123456 -> `1234.56`; bigint for sums that may pass 2^53. */
export function formatCents(cents: number | bigint): string {
  const value = BigInt(cents);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/**
 * Cents for people, in the page's language and the user's currency (an ISO 4217 code, or '' for
 * none): 123456 -> `1,234.56`, `€1,234.56` with EUR; `1 234,56` in Ukrainian. Always two
 * decimals, since prices are kept in hundredths whatever the currency.
 */
export function formatMoney(cents: number | bigint, currency = '', language = 'en'): string {
  const options: Intl.NumberFormatOptions = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  if (currency) Object.assign(options, { style: 'currency', currency });
  // The exact decimal text, never a float: Intl reads a numeric string without rounding it.
  return new Intl.NumberFormat(localeOf(language), options).format(formatCents(cents) as unknown as number);
}

/** 1500 -> `1.5`, 2000 -> `2`, 125 -> `0.125`: the exact text, as the API and files write it. */
export function formatQuantity(milli: number): string {
  const whole = Math.floor(milli / 1000);
  const fraction = String(milli % 1000).padStart(3, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** A quantity for people, in the page's language: `1.5`, `1,5` in Ukrainian, `1,000` / `1 000`. */
export function showQuantity(milli: number, language = 'en'): string {
  return new Intl.NumberFormat(localeOf(language), { maximumFractionDigits: 3 }).format(formatQuantity(milli) as unknown as number);
}

/** Exact decimal text as the page's language types it (an edit form's value): `1,5` and `2,99` in Ukrainian. */
export function typedDecimal(text: string, language = 'en'): string {
  return COMMA_DECIMAL.has(language) ? text.replace('.', ',') : text;
}

export interface EstimatedTotal {
  /** Sum of price x quantity over the items not yet bought, rounded half up to a cent once, at the end. */
  cents: bigint;
  /** Items not yet bought without a price: the total leaves them out. */
  unpriced: number;
}

export function estimatedTotal(items: { quantity_milli: number; estimated_price_cents: number | null; is_done: number }[]): EstimatedTotal {
  let milliCents = 0n;
  let unpriced = 0;
  for (const item of items) {
    if (item.is_done === 1) continue;
    if (item.estimated_price_cents === null) unpriced += 1;
    else milliCents += BigInt(item.estimated_price_cents) * BigInt(item.quantity_milli);
  }
  return { cents: (milliCents + 500n) / 1000n, unpriced };
}

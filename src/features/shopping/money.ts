// Money and quantities are kept as integers and parsed from decimal text digit by digit, never
// through floating point: 0.10 + 0.20 is exactly 0.30 here.

export type Parsed = { ok: true; value: number } | { ok: false; message: string };

/** The largest price accepted: 1,000,000.00 (in cents). */
export const MAX_PRICE_CENTS = 100_000_000;
/** The largest quantity accepted: 1,000,000 (in thousandths), well inside a 32-bit integer column. */
export const MAX_QUANTITY_MILLI = 1_000_000_000;
const MAX_PRICE = formatCents(MAX_PRICE_CENTS);
const MAX_QUANTITY = formatQuantity(MAX_QUANTITY_MILLI);

/**
 * A comma is read as the decimal mark only where it cannot be a thousands separator: one comma,
 * digits before it, one or two digits after it and no dot (`1,5` and `2,49`, but never `1,500`,
 * which stays refused as ambiguous).
 */
export function decimalComma(text: string): string {
  return /^\d+,\d{1,2}$/.test(text) ? text.replace(',', '.') : text;
}

/** `12`, `12.5`, `12.50`, `.5`, `1,5` -> integer count of 1/10^places units; null if not such a number. */
function parseDecimal(given: string, places: number): number | null {
  const text = decimalComma(given);
  const match = new RegExp(`^(\\d{0,10})(?:\\.(\\d{1,${places}}))?$`).exec(text);
  if (!match || (match[1] === '' && match[2] === undefined)) return null;
  const whole = Number(match[1] || '0');
  const fraction = Number((match[2] ?? '').padEnd(places, '0') || '0');
  return whole * 10 ** places + fraction;
}

function problem(text: string, places: number, what: string, example: string, max: string): string {
  if (text.startsWith('-')) return `${what} cannot be negative.`;
  if (/^\d{11,}(\.\d*)?$/.test(text)) return `${what} can be at most ${max}.`;
  if (new RegExp(`^\\d*\\.\\d{${places + 1},}$`).test(text)) return `${what} has at most ${places} decimal places.`;
  return `Enter ${what.toLowerCase()} as a number, like ${example}.`;
}

/** A price like `2.49` -> 249 cents. */
export function parseMoney(text: string): Parsed {
  const cents = parseDecimal(text, 2);
  if (cents === null) return { ok: false, message: problem(text, 2, 'The price', '2.49', MAX_PRICE) };
  if (cents > MAX_PRICE_CENTS) return { ok: false, message: `The price can be at most ${MAX_PRICE}.` };
  return { ok: true, value: cents };
}

/** A quantity like `1.5` -> 1500 thousandths; it must be more than zero. */
export function parseQuantity(text: string): Parsed {
  const milli = parseDecimal(text, 3);
  if (milli === null) return { ok: false, message: problem(text, 3, 'The quantity', '2 or 1.5', MAX_QUANTITY) };
  if (milli === 0) return { ok: false, message: 'The quantity must be more than zero.' };
  if (milli > MAX_QUANTITY_MILLI) return { ok: false, message: `The quantity can be at most ${MAX_QUANTITY}.` };
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
 * Cents for people: thousands separators and the user's currency (an ISO 4217 code, or '' for
 * none), in English for now: 123456 -> `1,234.56`, `€1,234.56` with EUR. Always two decimals,
 * since prices are kept in hundredths whatever the currency.
 */
export function formatMoney(cents: number | bigint, currency = ''): string {
  const options: Intl.NumberFormatOptions = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  if (currency) Object.assign(options, { style: 'currency', currency });
  // The exact decimal text, never a float: Intl reads a numeric string without rounding it.
  return new Intl.NumberFormat('en', options).format(formatCents(cents) as unknown as number);
}

/** 1500 -> `1.5`, 2000 -> `2`, 125 -> `0.125`. */
export function formatQuantity(milli: number): string {
  const whole = Math.floor(milli / 1000);
  const fraction = String(milli % 1000).padStart(3, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

export interface EstimatedTotal {
  /** Sum of price x quantity over the items not yet bought, rounded half up to a cent once, at the end. */
  cents: bigint;
  /** Items not yet bought without a price: the total leaves them out. */
  unpriced: number;
}

export function estimatedTotal(items: { quantity_milli: number; estimated_price_cents: number | null; is_bought: number }[]): EstimatedTotal {
  let milliCents = 0n;
  let unpriced = 0;
  for (const item of items) {
    if (item.is_bought === 1) continue;
    if (item.estimated_price_cents === null) unpriced += 1;
    else milliCents += BigInt(item.estimated_price_cents) * BigInt(item.quantity_milli);
  }
  return { cents: (milliCents + 500n) / 1000n, unpriced };
}

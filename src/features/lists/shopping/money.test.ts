import { describe, expect, it } from 'vitest';
import { estimatedTotal, formatCents, formatMoney, formatQuantity, parseMoney, parseQuantity, showQuantity, typedDecimal } from './money.js';

const item = (price: number | null, quantity = 1000, bought = 0) => ({ estimated_price_cents: price, quantity_milli: quantity, is_done: bought });

describe('parseMoney', () => {
  it('reads decimal prices digit by digit into cents', () => {
    expect(['0.10', '0.20', '2', '2.5', '2.49', '.5', '1000000.00'].map((text) => parseMoney(text))).toEqual(
      [10, 20, 200, 250, 249, 50, 100_000_000].map((value) => ({ ok: true, value })),
    );
  });

  it('refuses negative, non-numeric, over-precise and too large prices with a reason', () => {
    expect(parseMoney('-1')).toMatchObject({ ok: false, message: 'The price cannot be negative.' });
    expect(parseMoney('1.234')).toMatchObject({ ok: false, message: 'The price has at most 2 decimal places.' });
    for (const text of ['abc', '1e3', '0x10', '1,500', '1,5,0', '.', '', 'NaN', 'Infinity', '1.2.3', ' 1']) {
      expect(parseMoney(text).ok, text).toBe(false);
    }
    expect(parseMoney('1000000.01').ok).toBe(false);
    expect(parseMoney('99999999999999999999')).toMatchObject({ ok: false, message: 'The price can be at most 1000000.00.' });
  });
});

describe('parseQuantity', () => {
  it('keeps decimals exactly in thousandths', () => {
    expect(parseQuantity('1.5')).toEqual({ ok: true, value: 1500 });
    expect(parseQuantity('0.125')).toEqual({ ok: true, value: 125 });
    expect(parseQuantity('3')).toEqual({ ok: true, value: 3000 });
  });

  it('refuses zero, negative, non-numeric and too precise quantities', () => {
    expect(parseQuantity('0')).toMatchObject({ ok: false, message: 'The quantity must be more than zero.' });
    expect(parseQuantity('-2')).toMatchObject({ ok: false, message: 'The quantity cannot be negative.' });
    expect(parseQuantity('1.2345')).toMatchObject({ ok: false, message: 'The quantity has at most 3 decimal places.' });
    expect(parseQuantity('lots').ok).toBe(false);
    expect(parseQuantity('1000001').ok).toBe(false);
  });
});

describe('estimatedTotal', () => {
  it('adds 0.10 and 0.20 to exactly 0.30', () => {
    const total = estimatedTotal([item(10), item(20)]);
    expect(total.cents).toBe(30n);
    expect(formatCents(total.cents)).toBe('0.30');
  });

  it('multiplies price by quantity exactly and leaves out bought and unpriced items', () => {
    const total = estimatedTotal([item(249, 3000), item(10, 1500), item(20, 2500), item(999, 1000, 1), item(null, 1000)]);
    // 7.47 + 0.15 + 0.50; the bought 9.99 is not counted, the unpriced item is reported.
    expect(formatCents(total.cents)).toBe('8.12');
    expect(total.unpriced).toBe(1);
  });

  it('rounds fractions of a cent once, half up, at the end', () => {
    // 0.333 kg at 0.01 three times is 0.999 cents: 1 cent, not 0 (per-line rounding would give 0).
    expect(estimatedTotal([item(1, 333), item(1, 333), item(1, 333)]).cents).toBe(1n);
    expect(estimatedTotal([item(1, 499)]).cents).toBe(0n);
  });

  it('stays exact beyond 2^53 thousandths of a cent', () => {
    const huge = estimatedTotal([item(100_000_000, 1_000_000_000), item(100_000_000, 1_000_000_000), item(1)]);
    expect(formatCents(huge.cents)).toBe('2000000000000.01');
  });
});

describe('formatting', () => {
  it('shows two decimals and trims quantities', () => {
    expect([formatCents(0), formatCents(5), formatCents(123456)]).toEqual(['0.00', '0.05', '1234.56']);
    expect([formatQuantity(1500), formatQuantity(2000), formatQuantity(125)]).toEqual(['1.5', '2', '0.125']);
  });
});

describe('a comma as the decimal mark', () => {
  it('is read where it cannot be a thousands separator: one comma, one or two digits after it', () => {
    expect([parseMoney('2,49'), parseMoney('1,5'), parseQuantity('1,5'), parseQuantity('0,25')].map((parsed) => parsed.ok && parsed.value)).toEqual([249, 150, 1500, 250]);
    for (const text of ['1,500', '1,234.5', ',5', '1,', '1,2,3']) expect(parseQuantity(text).ok, text).toBe(false);
  });
});

describe('numbers typed and shown in Ukrainian', () => {
  it('reads a comma as THE decimal mark: `1,500` kg is one and a half', () => {
    expect(['1,5', '1,500', '0,125', '2', '1.5'].map((text) => parseQuantity(text, 'uk')).map((parsed) => parsed.ok && parsed.value)).toEqual([1500, 1500, 125, 2000, 1500]);
    expect(['2,99', '0,1', ',5'].map((text) => parseMoney(text, 'uk')).map((parsed) => parsed.ok && parsed.value)).toEqual([299, 10, 50]);
    expect(parseMoney('1,234', 'uk')).toMatchObject({ ok: false, error: 'shopping.price_places' });
    expect(parseQuantity('1,2,3', 'uk').ok).toBe(false);
    expect(parseMoney('-1,5', 'uk')).toMatchObject({ ok: false, error: 'shopping.price_negative' });
  });

  it('keeps English’s rule elsewhere: `1,500` stays refused as ambiguous', () => {
    expect(parseQuantity('1,500', 'en')).toMatchObject({ ok: false, error: 'shopping.quantity_invalid' });
  });

  it('shows money and quantities through Intl in the page’s locale and the user’s currency', () => {
    const space = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
    expect(space(formatMoney(869, '', 'uk'))).toBe('8,69');
    expect(space(formatMoney(123456, '', 'uk'))).toBe('1 234,56');
    expect(space(formatMoney(869, 'UAH', 'uk'))).toBe('8,69 ₴');
    expect(formatMoney(123456, 'EUR', 'en')).toBe('€1,234.56');
    expect([showQuantity(1500, 'uk'), showQuantity(1500, 'en'), showQuantity(125, 'uk')]).toEqual(['1,5', '1.5', '0,125']);
    expect([typedDecimal('1.5', 'uk'), typedDecimal('2.99', 'uk'), typedDecimal('2.99', 'en')]).toEqual(['1,5', '2,99', '2.99']);
  });
});

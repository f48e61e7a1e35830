import { localeOf } from '../../platform/time-zones.js';
import type { ViewContext } from '../../platform/views/context.js';
import type { Choice } from '../../platform/views/forms.js';

// The currencies prices and totals may be shown in (the account page's short list, whose choice
// is the one a user's new shopping lists start with, and each shopping list's own): ISO 4217
// codes, formatted by Intl.NumberFormat. '' is none: plain numbers.

export const CURRENCIES = ['UAH', 'EUR', 'USD', 'GBP', 'PLN', 'CHF', 'CZK', 'SEK', 'NOK', 'DKK', 'CAD', 'AUD', 'JPY'] as const;

export function isCurrency(code: string): boolean {
  return code === '' || (CURRENCIES as readonly string[]).includes(code);
}

/** A currency select's choices: none, then each currency's code with its name in the page's language. */
export function currencyChoices(ctx: Pick<ViewContext, 't' | 'language'>): Choice[] {
  const names = new Intl.DisplayNames(localeOf(ctx.language), { type: 'currency' });
  return [{ value: '', label: ctx.t('account.currency_none') }, ...CURRENCIES.map((code) => ({ value: code, label: `${code} – ${names.of(code) ?? code}` }))];
}

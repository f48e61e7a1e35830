// The currencies a user may have prices and totals shown in (the account page's short list):
// ISO 4217 codes, formatted by Intl.NumberFormat. '' is none: plain numbers.

export const CURRENCIES = ['UAH', 'EUR', 'USD', 'GBP', 'PLN', 'CHF', 'CZK', 'SEK', 'NOK', 'DKK', 'CAD', 'AUD', 'JPY'] as const;

export function isCurrency(code: string): boolean {
  return code === '' || (CURRENCIES as readonly string[]).includes(code);
}

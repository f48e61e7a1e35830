import { LANGUAGES, type Language } from './catalogue.js';

/** Entries of an Accept-Language header looked at: a longer header is cut, never parsed whole. */
const MAX_ENTRIES = 20;

function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language a page speaks: the user's own choice when they made one, else the first of the
 * browser's Accept-Language (by weight) that the catalogue has, else English.
 */
export function chooseLanguage(acceptLanguage: string | undefined, setting?: string | null): Language {
  if (setting && isLanguage(setting)) return setting;
  if (!acceptLanguage) return 'en';
  const wanted = acceptLanguage
    .split(',', MAX_ENTRIES)
    .map((entry, order) => {
      const [tag = '', ...parameters] = entry.trim().split(';');
      const q = parameters.map((parameter) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(parameter)?.[1]).find(Boolean);
      return { primary: tag.trim().split('-')[0]!.toLowerCase(), weight: q === undefined ? 1 : Number(q), order };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  return wanted.map((entry) => entry.primary).find(isLanguage) ?? 'en';
}

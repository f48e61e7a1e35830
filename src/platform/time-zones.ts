// Each user has an IANA time zone: "today" (due dates, overdue) is theirs, not the server's.

export const DEFAULT_TIME_ZONE = 'UTC';

/** Every zone this Node.js lists (its ICU data's canonical names), with UTC first. */
export const TIME_ZONES: readonly string[] = [...new Set([DEFAULT_TIME_ZONE, ...Intl.supportedValuesOf('timeZone')])];
const listed = new Set(TIME_ZONES);
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * A zone Node.js can compute with: a listed one, or another name it accepts. Node 20's ICU lists
 * older names (Europe/Kiev) but accepts the current ones (Europe/Kyiv) that browsers send.
 */
export function isTimeZone(name: string): boolean {
  if (listed.has(name)) return true;
  if (!ZONE_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** TIME_ZONES, with `current` too when it is a name not listed (Europe/Kyiv on Node 20). */
export function timeZoneChoices(current: string | undefined): readonly string[] {
  return current && !listed.has(current) && isTimeZone(current) ? [current, ...TIME_ZONES] : TIME_ZONES;
}

/** A zone as typed or guessed by a browser, or UTC when it is not one this server knows. */
export function timeZoneOr(name: unknown, fallback = DEFAULT_TIME_ZONE): string {
  return typeof name === 'string' && isTimeZone(name) ? name : fallback;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The date in `timeZone` at `now`, as YYYY-MM-DD. */
export function todayIn(timeZone: string, now = new Date()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD. At most one format per known zone is made.
    format = new Intl.DateTimeFormat('en-CA', { timeZone: timeZoneOr(timeZone), year: 'numeric', month: '2-digit', day: '2-digit' });
    if (isTimeZone(timeZone)) dayFormats.set(timeZone, format);
  }
  return format.format(now);
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The locale dates and numbers are written in for a language of the catalogue: British English
 * for English (day before month, 24-hour clock), else the language itself.
 */
export function localeOf(language: string): string {
  return language === 'en' ? 'en-GB' : language;
}

/**
 * A moment as the user reads it in `timeZone` and their language: "25 Nov 2026, 14:05",
 * "25 лист. 2026 р., 14:05". At most one format per known zone and language is made.
 */
export function dateTimeIn(timeZone: string, ms: number, language = 'en', style: 'date' | 'dateTime' = 'dateTime'): string {
  const id = `${language}|${style}|${timeZone}`;
  let format = dateTimeFormats.get(id);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = style === 'date' ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' };
    format = new Intl.DateTimeFormat(localeOf(language), { timeZone: timeZoneOr(timeZone), ...options });
    if (isTimeZone(timeZone) && dateTimeFormats.size < 10_000) dateTimeFormats.set(id, format);
  }
  return format.format(new Date(ms));
}

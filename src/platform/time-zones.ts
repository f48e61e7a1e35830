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

/** A moment as the user reads it in `timeZone`: "25 Nov 2026, 14:05". */
export function dateTimeIn(timeZone: string, ms: number): string {
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone: timeZoneOr(timeZone), dateStyle: 'medium', timeStyle: 'short' });
    if (isTimeZone(timeZone)) dateTimeFormats.set(timeZone, format);
  }
  return format.format(new Date(ms));
}

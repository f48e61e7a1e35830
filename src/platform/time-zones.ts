// Each user has an IANA time zone: "today" (due dates, overdue) is theirs, not the server's.

export const DEFAULT_TIME_ZONE = 'UTC';

/** Whether this Node.js computes with the name. */
function accepted(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Names the tz database has replaced (a city renamed, a spelling changed) that ICU still lists
 * and gives back as its canonical ids, with the name browsers and the tz database use now. Only
 * renames: zones merged into another country's (Europe/Bratislava into Europe/Prague) keep their
 * own name, which is the one people look for.
 */
const RENAMED: readonly (readonly [string, string])[] = [
  ['Africa/Asmera', 'Africa/Asmara'],
  ['America/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
  ['America/Catamarca', 'America/Argentina/Catamarca'],
  ['America/Coral_Harbour', 'America/Atikokan'],
  ['America/Cordoba', 'America/Argentina/Cordoba'],
  ['America/Godthab', 'America/Nuuk'],
  ['America/Indianapolis', 'America/Indiana/Indianapolis'],
  ['America/Jujuy', 'America/Argentina/Jujuy'],
  ['America/Louisville', 'America/Kentucky/Louisville'],
  ['America/Mendoza', 'America/Argentina/Mendoza'],
  ['Asia/Calcutta', 'Asia/Kolkata'],
  ['Asia/Katmandu', 'Asia/Kathmandu'],
  ['Asia/Rangoon', 'Asia/Yangon'],
  ['Asia/Saigon', 'Asia/Ho_Chi_Minh'],
  ['Atlantic/Faeroe', 'Atlantic/Faroe'],
  ['Europe/Kiev', 'Europe/Kyiv'],
  ['Pacific/Enderbury', 'Pacific/Kanton'],
  ['Pacific/Ponape', 'Pacific/Pohnpei'],
  ['Pacific/Truk', 'Pacific/Chuuk'],
];
const CURRENT_NAMES = new Map(RENAMED.filter(([, current]) => accepted(current)));

/** A zone under its current name (Europe/Kyiv for a stored Europe/Kiev); another name as it is. */
export function currentZoneName(name: string): string {
  return CURRENT_NAMES.get(name) ?? name;
}

const icuNames = Intl.supportedValuesOf('timeZone');
/** Every zone this Node.js lists, under its current name (Europe/Kyiv, not ICU's Europe/Kiev), with UTC first. */
export const TIME_ZONES: readonly string[] = [...new Set([DEFAULT_TIME_ZONE, ...icuNames.map(currentZoneName)])];
const offered = new Set(TIME_ZONES);
const listed = new Set([...TIME_ZONES, ...icuNames]);
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * A zone Node.js can compute with: a listed one, or another name it accepts. Node 20's ICU lists
 * older names (Europe/Kiev) but accepts the current ones (Europe/Kyiv) that browsers send.
 */
export function isTimeZone(name: string): boolean {
  if (listed.has(name)) return true;
  return ZONE_NAME.test(name) && accepted(name);
}

/** TIME_ZONES, with `current` too when it is another name Node.js accepts (a link such as US/Eastern). */
export function timeZoneChoices(current: string | undefined): readonly string[] {
  const name = current && currentZoneName(current);
  return name && !offered.has(name) && isTimeZone(name) ? [name, ...TIME_ZONES] : TIME_ZONES;
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

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** How far `timeZone` is ahead of UTC at `ms`, as `+02:00` or `-05:00` (`+00:00` for UTC itself). */
export function utcOffsetIn(timeZone: string, ms = Date.now()): string {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en', { timeZone: timeZoneOr(timeZone), timeZoneName: 'longOffset' });
    if (isTimeZone(timeZone) && offsetFormats.size < 1_000) offsetFormats.set(timeZone, format);
  }
  const name = format.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value ?? '';
  // "GMT+02:00"; UTC itself is "GMT" alone in some ICU releases.
  return /[+-]\d{2}:\d{2}/.exec(name)?.[0] ?? '+00:00';
}

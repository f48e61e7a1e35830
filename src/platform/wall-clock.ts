// Wall-clock times in a time zone ("09:00 in Europe/Kyiv") and the instants they name, with
// Intl alone: a local time may not exist (clocks moved forward) or exist twice (moved back).

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export type Repeat = 'none' | 'daily' | 'weekly' | 'monthly';

const DAY_MS = 24 * 60 * 60 * 1000;
/** What `<input type="datetime-local">` sends: minutes, or seconds (and milliseconds, ignored) with `step`. */
const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `YYYY-MM-DDTHH:MM[:SS]` as a browser sends it, or null when it names no calendar time. */
export function parseWallTime(text: string): WallTime | null {
  const match = LOCAL_INPUT.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second = 0] = match.slice(1, 7).map((part) => (part === undefined ? 0 : Number(part))) as number[];
  const wall = { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second };
  const valid = wall.year >= 1 && wall.month >= 1 && wall.month <= 12 && wall.day >= 1 && wall.day <= daysInMonth(wall.year, wall.month)
    && wall.hour <= 23 && wall.minute <= 59 && wall.second <= 59;
  return valid ? wall : null;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `YYYY-MM-DDTHH:MM`, with `:SS` only when the seconds are not zero. */
export function formatWallTime(wall: WallTime): string {
  const minutes = `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}`;
  return wall.second === 0 ? minutes : `${minutes}:${pad(wall.second)}`;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    // Bounded: callers pass only zones isTimeZone accepted, a few hundred at most.
    formats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock time in `timeZone` at the instant `ms`. */
export function wallTimeAt(timeZone: string, ms: number): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatIn(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

const asUtc = (wall: WallTime) => {
  const date = new Date(Date.UTC(2000, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second));
  date.setUTCFullYear(wall.year);
  return date.getTime();
};

/** How far `timeZone` is ahead of UTC at the instant `ms`. */
function offsetAt(timeZone: string, ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return asUtc(wallTimeAt(timeZone, whole)) - whole;
}

export type Resolved = { instant: number; exists: true } | { instant: number; exists: false };

/**
 * The instant a wall-clock time names in `timeZone`. Twice (clocks moved back): the earlier.
 * Never (clocks moved forward): `exists` is false and the instant is as far past the gap's
 * start as the time is (02:30 in a 02:00-03:00 gap gives 03:30), as calendars do.
 */
export function resolveWallTime(wall: WallTime, timeZone: string): Resolved {
  const local = asUtc(wall);
  // Offsets around the time: a transition lies between the day before and the day after.
  const offsets = [...new Set([offsetAt(timeZone, local - DAY_MS), offsetAt(timeZone, local), offsetAt(timeZone, local + DAY_MS)])];
  const matches = offsets.map((offset) => local - offset).filter((instant) => asUtc(wallTimeAt(timeZone, instant)) === local).sort((a, b) => a - b);
  if (matches.length > 0) return { instant: matches[0]!, exists: true };
  return { instant: local - offsetAt(timeZone, local - DAY_MS), exists: false };
}

/** The wall time of a schedule's k-th occurrence (k = 0: as entered); a monthly 31st clamps to shorter months. */
export function occurrence(start: WallTime, repeat: Repeat, k: number): WallTime {
  if (repeat === 'monthly') {
    const months = start.month - 1 + k;
    const year = start.year + Math.floor(months / 12);
    const month = (months % 12) + 1;
    return { ...start, year, month, day: Math.min(start.day, daysInMonth(year, month)) };
  }
  const days = repeat === 'weekly' ? 7 * k : repeat === 'daily' ? k : 0;
  const date = new Date(asUtc({ ...start, hour: 0, minute: 0, second: 0 }) + days * DAY_MS);
  return { ...start, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

const PERIOD_MS: Record<Exclude<Repeat, 'none'>, number> = { daily: DAY_MS, weekly: 7 * DAY_MS, monthly: 30.436875 * DAY_MS };

/**
 * The first occurrence of the schedule strictly after `afterMs`, computed from the schedule
 * (not from when the last one ran): occurrences missed meanwhile are skipped. Null for `none`.
 */
export function nextOccurrence(start: WallTime, timeZone: string, repeat: Repeat, afterMs: number): number | null {
  if (repeat === 'none') return null;
  const first = resolveWallTime(start, timeZone).instant;
  // Begin a little before the estimate: months and DST days differ from the average period.
  let k = Math.max(1, Math.floor((afterMs - first) / PERIOD_MS[repeat]) - 2);
  for (;;) {
    const instant = resolveWallTime(occurrence(start, repeat, k), timeZone).instant;
    if (instant > afterMs) return instant;
    k += 1;
  }
}

/**
 * Where a schedule is due from `fromMs` on: its start when that has not passed, else its first
 * occurrence after (missed ones skipped); null for a one-off whose time has passed. For
 * reminders brought in from elsewhere (imports), which were not entered through the form.
 */
export function dueFrom(start: WallTime, timeZone: string, repeat: Repeat, fromMs: number): number | null {
  const first = resolveWallTime(start, timeZone).instant;
  if (first >= fromMs) return first;
  return nextOccurrence(start, timeZone, repeat, fromMs - 1);
}

import { DEFAULT_TIME_ZONE } from '../../platform/time-zones.js';
import { dueFrom, formatWallTime, type Repeat, wallTimeAt } from '../../platform/wall-clock.js';
import { MESSAGE_MAX } from '../notes/index.js';
import type { Value } from './parse.js';

// A `notes_app.reminder` of the original as a reminder here. The original stores an instant
// (`remind_at`); here a reminder is a wall-clock time in its owner's time zone, from which repeats
// are computed. Django's auth.user has no time zone, so imported users have this service's
// default (UTC) and the wall time is remind_at read in UTC; they may change their zone later,
// and reminders already set keep the zone they were made in, as ones entered here do.

/** The zone of every imported user's reminders: imported users have the default zone. */
export const IMPORTED_TIME_ZONE = DEFAULT_TIME_ZONE;

const REPEATS: readonly string[] = ['none', 'daily', 'weekly', 'monthly'] satisfies Repeat[];

export interface PlannedReminder {
  local_time: string;
  time_zone: string;
  repeat: Repeat;
  message: string;
  next_due_at: number;
  /** A repeating reminder whose time had passed, moved to its next occurrence. */
  moved: boolean;
}

/**
 * The reminder to write, `'sent'` for a one-off the original already sent (nothing is left to
 * remind of), or the reason it is left out. A one-off whose time has passed unsent is left out
 * too, with its reason, rather than sent at once years late; a repeating one is moved to its
 * next occurrence after `now` (as the scheduler moves one missed while no instance ran).
 */
export function planReminder(fields: Record<string, Value>, now: number): PlannedReminder | 'sent' | string {
  const repeat = typeof fields.repeat === 'string' && fields.repeat.trim() !== '' ? fields.repeat.trim().toLowerCase() : 'none';
  if (!REPEATS.includes(repeat)) return `the repeat ${JSON.stringify(fields.repeat)} is not none, daily, weekly or monthly`;
  const message = typeof fields.message === 'string' ? fields.message.trim() : '';
  if (message.length > MESSAGE_MAX) return `the message is longer than ${MESSAGE_MAX} characters`;
  const at = fields.remind_at as number;
  if (repeat === 'none' && fields.is_sent === true) return 'sent';
  const start = wallTimeAt(IMPORTED_TIME_ZONE, at);
  const due = dueFrom(start, IMPORTED_TIME_ZONE, repeat as Repeat, now);
  if (due === null) return `a one-off reminder for ${new Date(at).toISOString()}, which has passed (never sent)`;
  return { local_time: formatWallTime(start), time_zone: IMPORTED_TIME_ZONE, repeat: repeat as Repeat, message, next_due_at: due, moved: due > at };
}

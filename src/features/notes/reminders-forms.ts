import { z } from 'zod';
import { formFailure, type FormResult } from '../../platform/forms.js';
import type { FormErrors } from '../../platform/views/forms.js';
import { formatWallTime, parseWallTime, type Repeat, resolveWallTime, type WallTime } from '../../platform/wall-clock.js';

export const MESSAGE_MAX = 500;
export const REMINDERS_PER_NOTE = 20;
export const REPEATS: readonly { value: Repeat; label: string }[] = [
  { value: 'none', label: 'Once' },
  { value: 'daily', label: 'Every day' },
  { value: 'weekly', label: 'Every week' },
  { value: 'monthly', label: 'Every month' },
];

const text = (value: unknown) => (Array.isArray(value) ? value[0] : value);

const shape = z.object({
  remind_at: z.preprocess(text, z.string({ error: 'Enter a date and time.' }).trim().min(1, 'Enter a date and time.')),
  message: z.preprocess(
    text,
    z
      .string({ error: 'Enter the message as text.' })
      .optional()
      .transform((value) => (value ?? '').trim())
      .pipe(z.string().max(MESSAGE_MAX, `Messages have at most ${MESSAGE_MAX} characters.`)),
  ),
  repeat: z.preprocess(
    (value) => text(value) || 'none',
    z.enum(['none', 'daily', 'weekly', 'monthly'], { error: 'Choose once, every day, every week or every month.' }),
  ),
});

export interface ReminderInput {
  /** As entered, in timeZone. */
  localTime: string;
  timeZone: string;
  repeat: Repeat;
  message: string;
  /** The first delivery, epoch ms. */
  dueAt: number;
}

/**
 * The add form, read in the caller's time zone: a time that does not exist there (the clocks
 * move forward over it) or that has passed is refused; the current minute is still allowed.
 */
export function parseReminderForm(body: unknown, timeZone: string, now = Date.now()): FormResult<ReminderInput> {
  const parsed = shape.safeParse(body ?? {});
  const errors: FormErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? '__all__')] ??= []).push(issue.message);
    return formFailure(body, errors);
  }
  const { remind_at: typed, message, repeat } = parsed.data;
  const wall = parseWallTime(typed);
  if (!wall) return formFailure(body, { remind_at: ['Enter a valid date and time.'] });
  const resolved = resolveWallTime(wall, timeZone);
  if (!resolved.exists) {
    return formFailure(body, { remind_at: [`${describe(wall)} does not exist in ${timeZone}: the clocks move forward over it. Choose another time.`] });
  }
  if (resolved.instant < now - (now % 60_000)) return formFailure(body, { remind_at: [`That time has passed in ${timeZone}. Choose a time to come.`] });
  return { ok: true, data: { localTime: formatWallTime(wall), timeZone, repeat, message, dueAt: resolved.instant } };
}

function describe(wall: WallTime): string {
  return formatWallTime(wall).replace('T', ' ');
}

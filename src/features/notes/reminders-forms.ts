import { z } from 'zod';
import { formFailure, type FormResult, issueMessage } from '../../platform/forms.js';
import { type MessageKey, msg } from '../../platform/i18n/index.js';
import type { FormErrors } from '../../platform/forms.js';
import { formatWallTime, parseWallTime, type Repeat, resolveWallTime, type WallTime } from '../../platform/wall-clock.js';

export const MESSAGE_MAX = 500;
export const REMINDERS_PER_NOTE = 20;
export const REPEATS: readonly { value: Repeat; label: MessageKey }[] = [
  { value: 'none', label: msg('reminder.repeat_none') },
  { value: 'daily', label: msg('reminder.repeat_daily') },
  { value: 'weekly', label: msg('reminder.repeat_weekly') },
  { value: 'monthly', label: msg('reminder.repeat_monthly') },
];

const text = (value: unknown) => (Array.isArray(value) ? value[0] : value);

const shape = z.object({
  remind_at: z.preprocess(text, z.string({ error: msg('reminder_form.when_required') }).trim().min(1, msg('reminder_form.when_required'))),
  message: z.preprocess(
    text,
    z
      .string({ error: msg('reminder_form.message_text') })
      .optional()
      .transform((value) => (value ?? '').trim())
      .pipe(z.string().max(MESSAGE_MAX, msg('reminder_form.message_max'))),
  ),
  repeat: z.preprocess(
    (value) => text(value) || 'none',
    z.enum(['none', 'daily', 'weekly', 'monthly'], { error: msg('reminder_form.repeat') }),
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
    for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? '__all__')] ??= []).push(issueMessage(issue));
    return formFailure(body, errors);
  }
  const { remind_at: typed, message, repeat } = parsed.data;
  const wall = parseWallTime(typed);
  if (!wall) return formFailure(body, { remind_at: ['reminder_form.when_invalid'] });
  const resolved = resolveWallTime(wall, timeZone);
  if (!resolved.exists) {
    return formFailure(body, { remind_at: [{ key: 'reminder_form.when_skipped', values: { when: describe(wall), zone: timeZone } }] });
  }
  if (resolved.instant < now - (now % 60_000)) return formFailure(body, { remind_at: [{ key: 'reminder_form.when_passed', values: { zone: timeZone } }] });
  return { ok: true, data: { localTime: formatWallTime(wall), timeZone, repeat, message, dueAt: resolved.instant } };
}

function describe(wall: WallTime): string {
  return formatWallTime(wall).replace('T', ' ');
}

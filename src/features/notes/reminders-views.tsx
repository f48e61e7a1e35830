import { CsrfField, Field, FormAlert, type FormErrors, type FormValues, Select } from '../../platform/views/forms.js';
import type { ViewContext } from '../../platform/views/render.js';
import { timeZoneOr } from '../../platform/time-zones.js';
import { formatWallTime, wallTimeAt } from '../../platform/wall-clock.js';
import { MESSAGE_MAX, REPEATS } from './reminders-forms.js';
import type { ReminderRow } from './reminders-repository.js';

/** The add form as typed, with its errors (shown again with status 400). */
export interface ReminderFormState {
  values: FormValues;
  errors: FormErrors;
}

/** When a reminder next fires, in the zone it was entered in (its schedule's zone). */
export function reminderWhen(reminder: Pick<ReminderRow, 'time_zone' | 'next_due_at'>): string {
  const zone = timeZoneOr(reminder.time_zone);
  return `${formatWallTime(wallTimeAt(zone, reminder.next_due_at)).replace('T', ' ')} (${zone})`;
}

const repeatLabel = (repeat: ReminderRow['repeat']) => REPEATS.find((choice) => choice.value === repeat)?.label ?? repeat;

/** The note owner's reminders and the form to add one (the note page shows it to the owner only). */
export function NoteReminders({ ctx, noteId, reminders, form = { values: {}, errors: {} } }: {
  ctx: ViewContext;
  noteId: number;
  reminders: ReminderRow[];
  form?: ReminderFormState | undefined;
}) {
  return (
    <section class="reminders" aria-labelledby="reminders-heading">
      <h2 id="reminders-heading">Reminders</h2>
      {reminders.length === 0 ? (
        <p class="empty-state">No reminders on this note.</p>
      ) : (
        <ul class="reminder-list">
          {reminders.map((reminder) => (
            <li class="reminder">
              <time datetime={new Date(reminder.next_due_at).toISOString()} data-zone={timeZoneOr(reminder.time_zone)}>{reminderWhen(reminder)}</time> · {repeatLabel(reminder.repeat)}
              {reminder.message ? <> · {reminder.message}</> : null}{' '}
              <form method="post" action={`/reminders/${reminder.id}/delete/`} class="inline">
                <CsrfField ctx={ctx} />
                <button type="submit" class="secondary outline small" aria-label={`Delete the reminder of ${reminderWhen(reminder)}`}>Delete</button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <form method="post" action={`/notes/${noteId}/reminders/add/`} novalidate class="reminder-form">
        <CsrfField ctx={ctx} />
        <FormAlert errors={form.errors} />
        <div class="grid">
          <Field name="remind_at" label="Remind me at" type="datetime-local" value={form.values.remind_at} errors={form.errors} required
            help={`Your time zone: ${ctx.user!.timezone}.`} />
          <Select name="repeat" label="Repeat" value={form.values.repeat ?? 'none'} errors={form.errors}
            choices={REPEATS.map((choice) => ({ value: choice.value, label: choice.label }))} />
        </div>
        <Field name="message" label="Message (optional)" value={form.values.message} errors={form.errors} maxLength={MESSAGE_MAX} />
        <button type="submit">Add reminder</button>
      </form>
    </section>
  );
}

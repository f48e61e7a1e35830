import { CsrfField, Field, FormAlert, Select } from '../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../platform/forms.js';
import type { ViewContext } from '../../platform/views/context.js';
import { currentZoneName, dateTimeIn, timeZoneOr } from '../../platform/time-zones.js';
import { MESSAGE_MAX, REPEATS } from './reminders-forms.js';
import type { ReminderRow } from './reminders-repository.js';

/** The add form as typed, with its errors (shown again with status 400). */
export interface ReminderFormState {
  values: FormValues;
  errors: FormErrors;
}

/**
 * The zone a reminder is shown in: the reader's own, as every time on their pages and in the
 * reminder's mail, even when the schedule was entered in another (before the account's zone
 * changed). The repeats keep the schedule's zone.
 */
const shownZone = (ctx: Pick<ViewContext, 'user'>, reminder: Pick<ReminderRow, 'time_zone'>) => timeZoneOr(ctx.user?.timezone, timeZoneOr(reminder.time_zone));

/** When a reminder next fires, in the reader's zone and the page's language. */
export function reminderWhen(ctx: Pick<ViewContext, 't' | 'language' | 'user'>, reminder: Pick<ReminderRow, 'time_zone' | 'next_due_at'>): string {
  const zone = shownZone(ctx, reminder);
  return ctx.t('reminder.when', { when: dateTimeIn(zone, reminder.next_due_at, ctx.language), zone: currentZoneName(zone) });
}

const repeatLabel = (ctx: ViewContext, repeat: ReminderRow['repeat']) => ctx.t(REPEATS.find((choice) => choice.value === repeat)?.label ?? 'reminder.repeat_none');

/** The note owner's reminders and the form to add one (the note page shows it to the owner only). */
export function NoteReminders({ ctx, noteId, reminders, form = { values: {}, errors: {} } }: {
  ctx: ViewContext;
  noteId: number;
  reminders: ReminderRow[];
  form?: ReminderFormState | undefined;
}) {
  return (
    <section class="reminders" aria-labelledby="reminders-heading">
      <h2 id="reminders-heading">{ctx.t('reminder.heading')}</h2>
      {reminders.length === 0 ? (
        <p class="empty-state">{ctx.t('reminder.none')}</p>
      ) : (
        <ul class="reminder-list">
          {reminders.map((reminder) => (
            <li class="reminder">
              <time datetime={new Date(reminder.next_due_at).toISOString()} data-zone={shownZone(ctx, reminder)}>{reminderWhen(ctx, reminder)}</time> · {repeatLabel(ctx, reminder.repeat)}
              {reminder.message ? <> · {reminder.message}</> : null}{' '}
              <form method="post" action={`/reminders/${reminder.id}/delete/`} class="inline">
                <CsrfField ctx={ctx} />
                <button type="submit" class="secondary outline small" aria-label={ctx.t('reminder.delete_named', { when: reminderWhen(ctx, reminder) })}>{ctx.t('reminder.delete')}</button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <form method="post" action={`/notes/${noteId}/reminders/add/`} novalidate class="reminder-form">
        <CsrfField ctx={ctx} />
        <FormAlert errors={form.errors} />
        <div class="grid">
          <Field name="remind_at" label={ctx.t('reminder_form.remind_at')} type="datetime-local" value={form.values.remind_at} errors={form.errors} required
            help={ctx.t('reminder_form.zone_help', { zone: currentZoneName(ctx.user!.timezone) })} />
          <Select name="repeat" label={ctx.t('reminder_form.repeat_label')} value={form.values.repeat ?? 'none'} errors={form.errors}
            choices={REPEATS.map((choice) => ({ value: choice.value, label: ctx.t(choice.label) }))} />
        </div>
        <Field name="message" label={ctx.t('reminder_form.message')} value={form.values.message} errors={form.errors} maxLength={MESSAGE_MAX} />
        <button type="submit">{ctx.t('reminder_form.add')}</button>
      </form>
    </section>
  );
}

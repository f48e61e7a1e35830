import type { FastifyInstance } from 'fastify';
import type { VNode } from 'preact';
import { NotFound } from '../../errors.js';
import { formValues } from '../../platform/forms.js';
import { msg } from '../../platform/i18n/index.js';
import { pathId } from '../../platform/ids.js';
import { timeZoneOr } from '../../platform/time-zones.js';
import { DeleteConfirmPage } from '../../platform/views/controls.js';
import { type ViewContext, viewContext } from '../../platform/views/context.js';
import type { ReminderScheduler } from './reminder-scheduler.js';
import { parseReminderForm, REMINDERS_PER_NOTE } from './reminders-forms.js';
import type { RemindersRepository } from './reminders-repository.js';
import { reminderWhen, type ReminderFormState } from './reminders-views.js';

type PkParams = { Params: { pk: string } };

export interface ReminderRouteDeps {
  reminders: RemindersRepository;
  scheduler: ReminderScheduler;
  /** Throws NotFound unless the user owns the note. */
  ownedOr404(userId: number, noteId: number): Promise<unknown>;
  /** The note page, with the add form as typed. */
  notePage(ctx: ViewContext, userId: number, noteId: number, form: ReminderFormState): Promise<VNode>;
}

/** Reminders on notes: the note's owner alone adds, sees and deletes them; anyone else gets 404. */
export function reminderRoutes(app: FastifyInstance, { reminders, scheduler, ownedOr404, notePage }: ReminderRouteDeps): void {
  app.post<PkParams>('/notes/:pk/reminders/add/', async (request, reply) => {
    const userId = request.user!.id;
    // Ownership first: a note the caller may read but not change is a 404 whatever the form holds.
    const noteId = pathId(request);
    await ownedOr404(userId, noteId);
    const form = parseReminderForm(request.body, timeZoneOr(request.user!.timezone));
    const outcome = form.ok ? await reminders.addToOwnedNote(userId, noteId, form.data, REMINDERS_PER_NOTE) : null;
    if (outcome === 'missing') throw new NotFound();
    if (!form.ok || outcome === 'full') {
      const state = form.ok
        ? { values: formValues(request.body), errors: { __all__: [{ key: msg('reminder_form.full'), values: { max: REMINDERS_PER_NOTE } }] } }
        : { values: form.values, errors: form.errors };
      return reply.render(await notePage(viewContext(request), userId, noteId, state), 400);
    }
    scheduler.added(form.data.dueAt);
    request.flash('reminder.added');
    return reply.redirect(`/notes/${noteId}/`, 302);
  });

  app.get<PkParams>('/reminders/:pk/delete/', async (request, reply) => {
    const reminder = await reminders.findOwned(request.user!.id, pathId(request));
    if (!reminder) throw new NotFound();
    const ctx = viewContext(request);
    return reply.render(
      DeleteConfirmPage({
        ctx,
        kind: 'reminder',
        name: `${reminder.note_title}: ${reminderWhen(ctx, reminder)}${reminder.message ? ` · ${reminder.message}` : ''}`,
        action: `/reminders/${reminder.id}/delete/`,
        cancel: `/notes/${reminder.note_id}/`,
        consequence: reminder.repeat === 'none' ? ctx.t('reminder.delete_once') : ctx.t('reminder.delete_repeats'),
      }),
    );
  });

  app.post<PkParams>('/reminders/:pk/delete/', async (request, reply) => {
    const noteId = await reminders.deleteOwned(request.user!.id, pathId(request));
    if (noteId === undefined) throw new NotFound();
    request.flash('reminder.deleted');
    return reply.redirect(`/notes/${noteId}/`, 302);
  });
}

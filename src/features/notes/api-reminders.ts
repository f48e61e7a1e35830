import type { FastifyInstance } from 'fastify';
import { NotFound } from '../../errors.js';
import { apiRoute, pkParams } from '../../platform/api/routes.js';
import { pageOf } from '../../platform/api/paging.js';
import { timeZoneOr } from '../../platform/time-zones.js';
import { invalidBody } from './api.js';
import type { NotesApiRepository } from './api-repository.js';
import { reminderCreateBody, reminderJson, reminderToJson } from './api-schemas.js';
import type { ReminderScheduler } from './reminder-scheduler.js';
import { parseReminderForm, REMINDERS_PER_NOTE } from './reminders-forms.js';
import type { RemindersRepository } from './reminders-repository.js';

export interface RemindersApiDeps {
  notes: NotesApiRepository;
  reminders: RemindersRepository;
  scheduler: ReminderScheduler;
}

const TAG = 'notes';
const reminderLocation = (id: number) => `/api/v1/reminders/${id}/`;

/**
 * Reminders on notes, as the note page has them (reminders-routes.ts): the note's owner alone
 * adds, lists and deletes them; anyone else, a group member who reads the note included, gets the
 * 404 of a missing note.
 */
export function remindersApi(app: FastifyInstance, { notes, reminders, scheduler }: RemindersApiDeps): void {
  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/notes/:pk/reminders/',
    tag: TAG,
    summary: `The reminders on a note you own, soonest first. A note has at most ${REMINDERS_PER_NOTE}, so they come in one page (\`next\` is null).`,
    params: pkParams,
    response: pageOf(reminderJson),
    errors: [404],
    handler: async ({ user, params }) => {
      // The note page's read: it carries the caller's own reminders on the note (none unless they own it).
      const note = await notes.findVisibleNote(user.id, params.pk);
      if (!note || note.owner_id !== user.id) throw new NotFound();
      return { results: note.reminders.map(reminderToJson), next: null };
    },
  });

  apiRoute(app, {
    method: 'POST',
    path: '/api/v1/notes/:pk/reminders/',
    tag: TAG,
    summary: 'Adds a reminder to a note you own; remind_at is a local time in your time zone, which must exist there and not have passed.',
    params: pkParams,
    body: reminderCreateBody,
    status: 201,
    response: reminderJson,
    location: (reminder) => reminderLocation(reminder.id),
    errors: [403, 404],
    handler: async ({ user, params, body }) => {
      // Ownership first: a note the caller may read but not change is a 404 whatever the body holds.
      const owned = await notes.findOwnedNote(user.id, params.pk);
      if (!owned) throw new NotFound();
      const form = parseReminderForm(body, timeZoneOr(user.timezone));
      if (!form.ok) throw invalidBody(form.errors);
      const outcome = await reminders.addToOwnedNote(user.id, owned.id, form.data, REMINDERS_PER_NOTE);
      if (outcome === 'missing') throw new NotFound();
      if (outcome === 'full') throw invalidBody({ __all__: [{ key: 'reminder_form.full', values: { max: REMINDERS_PER_NOTE } }] });
      scheduler.added(form.data.dueAt);
      const added = await reminders.findOwned(user.id, outcome.added);
      // Deleted between the insert and this read (by the owner, or with the note): gone, as for GET.
      if (!added) throw new NotFound();
      return reminderToJson(added);
    },
  });

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/reminders/:pk/',
    tag: TAG,
    summary: 'A reminder of yours.',
    params: pkParams,
    response: reminderJson,
    errors: [404],
    handler: async ({ user, params }) => {
      const reminder = await reminders.findOwned(user.id, params.pk);
      if (!reminder) throw new NotFound();
      return reminderToJson(reminder);
    },
  });

  apiRoute(app, {
    method: 'DELETE',
    path: '/api/v1/reminders/:pk/',
    tag: TAG,
    summary: 'Deletes a reminder of yours; none of its repeats is sent.',
    params: pkParams,
    status: 204,
    errors: [403, 404],
    handler: async ({ user, params }) => {
      if ((await reminders.deleteOwned(user.id, params.pk)) === undefined) throw new NotFound();
    },
  });
}

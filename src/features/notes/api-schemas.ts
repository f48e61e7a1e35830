import { z } from 'zod';
import { msg } from '../../platform/i18n/index.js';
import { INVALID_CHOICE, MAX_ID } from '../../platform/ids.js';
import { pagingQuery } from '../../platform/api/paging.js';
import type { FullNoteRow } from './api-repository.js';
import { noteForm } from './forms.js';
import { MESSAGE_MAX } from './reminders-forms.js';
import type { ReminderRow } from './reminders-repository.js';

// The JSON shapes of notes and their reminders: the note form's fields
// typed as JSON. The form's own schemas and messages where a field is text (title, content).

/** The search box's limit on the page (routes.ts): longer text is not a search anyone typed. */
const MAX_QUERY_LENGTH = 200;
const PRIORITY_MESSAGE = msg('note_form.priority');
const BOOLEAN_MESSAGE = msg('notes_api.boolean');

/** An id linking to another object: a JSON integer; anything else, like a foreign id, is "not a valid choice". */
const linkId = z.int({ error: INVALID_CHOICE }).min(1, INVALID_CHOICE).max(MAX_ID, INVALID_CHOICE);
const iso = z.iso.datetime().describe('ISO 8601, UTC.');

export const noteJson = z.object({
  id: z.int(),
  title: z.string(),
  content: z.string().describe('Markdown.'),
  notebook: z.int().nullable().describe('A notebook of the owner: shown to the owner only, null for anyone else.'),
  tags: z.array(z.int()).describe('Tags of the owner, by id, ascending: shown to the owner only, empty for anyone else.'),
  group: z.int().nullable().describe('The group whose members may read the note.'),
  priority: z.int().min(0).max(3).describe('0 low, 1 medium, 2 high, 3 urgent.'),
  is_pinned: z.boolean(),
  is_archived: z.boolean(),
  owner: z.string().describe('Username of the owner, who alone may change the note.'),
  created_at: iso,
  updated_at: iso,
});

export type NoteJson = z.infer<typeof noteJson>;

/**
 * A note as GET shows it to `viewerId`; also what an If-Match is checked against (so the ETags
 * agree). The owner's notebook and tags are the owner's own, as on the page: a group reader gets
 * none of their ids.
 */
export function noteToJson(note: FullNoteRow, viewerId: number): NoteJson {
  const owner = note.owner_id === viewerId;
  return {
    id: note.id,
    title: note.title,
    content: note.content,
    notebook: owner ? note.notebook_id : null,
    // By id, not by name as the page shows them: renaming a tag changes nothing here.
    tags: owner ? note.tags.map((tag) => tag.id).sort((a, b) => a - b) : [],
    group: note.group_id,
    priority: note.priority,
    is_pinned: Boolean(note.is_pinned),
    is_archived: Boolean(note.is_archived),
    owner: note.owner_username,
    created_at: new Date(note.created_at).toISOString(),
    updated_at: new Date(note.updated_at).toISOString(),
  };
}

const fields = {
  title: noteForm.shape.title,
  content: noteForm.shape.content,
  notebook: linkId.nullable().describe('One of your notebooks, or null.'),
  tags: z
    .array(linkId, { error: msg('notes_api.tag_ids') })
    .max(100, msg('notes_api.tags_max'))
    .transform((ids) => [...new Set(ids)])
    .describe('Ids of your tags.'),
  group: linkId.nullable().describe('A group you are a member of, or null.'),
  priority: z.int({ error: PRIORITY_MESSAGE }).min(0, PRIORITY_MESSAGE).max(3, PRIORITY_MESSAGE),
  is_pinned: z.boolean({ error: BOOLEAN_MESSAGE }),
  is_archived: z.boolean({ error: BOOLEAN_MESSAGE }),
};

export const noteCreateBody = z
  .object({
    title: fields.title,
    content: fields.content,
    notebook: fields.notebook.default(null),
    tags: fields.tags.default([]),
    group: fields.group.default(null),
    priority: fields.priority.default(0),
    is_pinned: fields.is_pinned.default(false),
    is_archived: fields.is_archived.default(false),
  })
  .strict();

/** Only the fields given change. */
export const notePatchBody = z
  .object({
    title: fields.title.optional(),
    content: fields.content.optional(),
    notebook: fields.notebook.optional(),
    tags: fields.tags.optional(),
    group: fields.group.optional(),
    priority: fields.priority.optional(),
    is_pinned: fields.is_pinned.optional(),
    is_archived: fields.is_archived.optional(),
  })
  .strict();

const ENTER_ID = msg('notes_api.id');
const filterId = z.coerce.number({ error: ENTER_ID }).int(ENTER_ID).min(1, ENTER_ID).max(MAX_ID, ENTER_ID);

export const noteListQuery = z
  .object({
    q: z.string().trim().max(MAX_QUERY_LENGTH, msg('notes_api.search_max')).optional().describe('Words that title or content must all hold, each as the start of a word or as another form of it (борщу finds борщ, apples finds apple); results then come newest first.'),
    tag: filterId.optional().describe('Only notes with this tag of yours.'),
    notebook: filterId.optional().describe('Only notes in this notebook of yours.'),
    archived: z
      .enum(['true', 'false', '1', '0'], { error: BOOLEAN_MESSAGE })
      .optional()
      .transform((value) => value === 'true' || value === '1')
      .describe('Archived notes instead of the others.'),
    ...pagingQuery,
  })
  .strict();

/**
 * The cursors: the last note's place in the list (ListKey) or, for a search, which is newest
 * first by id (search.ts), the last note's id. Both are checked in full; a list cursor given to a
 * search, or the other way round, is not of that list (a 400).
 */
export const listCursor = z.tuple([z.int().min(0).max(1), z.int().min(0).max(3), z.int().min(0), z.int().min(1).max(MAX_ID)]);
export const searchCursor = z.tuple([z.int().min(1).max(MAX_ID)]);

export const reminderJson = z.object({
  id: z.int(),
  note: z.int(),
  remind_at: z.string().describe('Local date and time (YYYY-MM-DDTHH:MM) in time_zone.'),
  time_zone: z.string().describe('IANA zone the reminder was set in: the user\'s zone at the time.'),
  message: z.string(),
  repeat: z.enum(['none', 'daily', 'weekly', 'monthly']),
  next_due_at: iso.describe('The next delivery, ISO 8601 UTC.'),
});

export type ReminderJson = z.infer<typeof reminderJson>;

export function reminderToJson(row: ReminderRow): ReminderJson {
  return {
    id: row.id,
    note: row.note_id,
    remind_at: row.local_time,
    time_zone: row.time_zone,
    message: row.message,
    repeat: row.repeat,
    next_due_at: new Date(row.next_due_at).toISOString(),
  };
}

/** The add form's fields as JSON; the form's parser (parseReminderForm) then checks the time itself. */
export const reminderCreateBody = z
  .object({
    remind_at: z.string({ error: msg('reminder_form.when_required') }).max(40, msg('reminder_form.when_invalid')).describe('Local date and time in your time zone, YYYY-MM-DDTHH:MM.'),
    message: z.string({ error: msg('reminder_form.message_text') }).trim().max(MESSAGE_MAX, msg('reminder_form.message_max')).optional(),
    repeat: z.enum(['none', 'daily', 'weekly', 'monthly'], { error: msg('reminder_form.repeat') }).default('none'),
  })
  .strict();

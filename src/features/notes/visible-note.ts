import type { Kysely } from 'kysely';
import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import { type Params, PreparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { type AudienceMember, audienceColumn, readAudience } from '../../platform/audience.js';
import { type NoteRow, NoteDetailsReader } from './details.js';
import { groupMembersOf, noteToken } from './note-token.js';
import { ownRemindersOnNote, type ReminderRow } from './reminders-repository.js';
import { noteAudience, visibleTo } from './visibility.js';

export type VisibleNote = NoteRow & {
  content: string;
  created_at: number;
  reminders: ReminderRow[];
  audience: AudienceMember[];
  /** What a kept page of the note is valid under (note-token.ts), read with the note. */
  token: string;
};

/**
 * The note page's query, built once: every note page that is not kept runs it, and building and
 * compiling it (about 100 µs) cost more than SQLite takes to run it.
 */
const visibleNoteQuery = new PreparedQuery((db, params: Params<{ userId: number; id: number }>) =>
  new NoteDetailsReader(db)
    .query()
    .select(['notes.content', 'notes.created_at', 'notes.view_version'])
    .select((eb) => jsonRowsFrom(db, ownRemindersOnNote(eb, params.userId)).as('reminders'))
    .select(audienceColumn(db, noteAudience(db, params.id)).as('audience'))
    .where(visibleTo(db, params.userId))
    .where('notes.id', '=', params.id),
);

/** A note the user may see with its details and tags, their own reminders on it and its audience. */
export async function readVisibleNote(db: Kysely<Database>, userId: number, id: number): Promise<VisibleNote | undefined> {
  const found = await visibleNoteQuery.executeTakeFirst(db, { userId, id });
  if (!found) return undefined;
  const audience = readAudience(found.audience);
  const note = NoteDetailsReader.noteRow(found);
  return { ...note, reminders: parseJsonRows<ReminderRow>(found.reminders), audience, token: noteToken(found.view_version, note.owner_username, note.group_name, groupMembersOf(audience)) };
}

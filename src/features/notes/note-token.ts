import type { Expression, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ObjectToken } from '../../platform/views/render.js';
import { type AudienceMember, audienceColumn, readAudience } from '../../platform/audience.js';
import { type UserRef, noteAudience, visibleTo } from './visibility.js';
import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import type { RouteColumn } from '../../platform/chain/route-column.js';
import { parseId } from '../../platform/ids.js';

// What a kept page of a note is valid under: its view version (which moves with the note, its
// tags and their names: migration 0007), its author's name, its group's name and its audience
// (who joins or leaves the group, or is renamed, moves no version of the note's).

/** The token of a note whose columns were read with it (NotesRepository.findVisibleNote). */
export function noteToken(viewVersion: number, username: string, groupName: string | null, audience: AudienceMember[]): string {
  return JSON.stringify([viewVersion, username, groupName, audience]);
}

/** What a note's token is made of, if `userId` may see the note. */
function noteTokenRow(db: Kysely<Database>, userId: UserRef, id: number | Expression<number>) {
  return db
    .selectFrom('notes')
    .innerJoin('users', 'users.id', 'notes.owner_id')
    .leftJoin('groups', 'groups.id', 'notes.group_id')
    .select(['notes.view_version', 'notes.owner_id', 'users.username', 'groups.name', audienceColumn(db, noteAudience(db, id)).as('audience')])
    .where(visibleTo(db, userId))
    .where('notes.id', '=', id);
}

/**
 * The token of the note of `/notes/<pk>/`, read in the session's statement for its user: a kept
 * note page then costs that one round trip (noteTokenOf reads it).
 */
export const noteTokenColumn: RouteColumn = {
  argument: (request) => parseId((request.params as { pk?: unknown } | undefined)?.pk) ?? undefined,
  column: (db, userId, id) => jsonRowsFrom(db, noteTokenRow(db, userId, id)),
};

/**
 * The token noteTokenColumn read for `userId`; undefined when they may not see the note. It is
 * cheaper than the page's own query, with nothing to render; the note's readers who do not own
 * it all get the same page (notePageToken).
 */
export function noteTokenOf(userId: number, value: unknown): ObjectToken | undefined {
  const [found] = parseJsonRows<{ view_version: number; owner_id: number; username: string; name: string | null; audience: unknown }>(value);
  return found && notePageToken(userId, found.owner_id, noteToken(found.view_version, found.username, found.name, readAudience(found.audience)));
}

/**
 * What the page of a note is kept under for `userId`: the owner's own page (its actions, tags
 * and reminders), or the page every other reader gets, kept once for them all.
 */
export function notePageToken(userId: number, ownerId: number, token: string): ObjectToken {
  return { token, shared: ownerId !== userId };
}

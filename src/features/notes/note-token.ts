import { type Expression, type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ObjectToken } from '../../platform/views/render.js';
import type { AudienceMember } from '../../platform/audience.js';
import { type UserRef, visibleTo } from './visibility.js';
import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import type { RouteColumn } from '../../platform/chain/route-column.js';
import { parseId } from '../../platform/ids.js';

// What a kept page of a note is valid under: its view version (which moves with the note, its
// tags and their names: migration 0007), its author's name, its group's name and its group's
// members by id and name (who joins or leaves the group, or is renamed, moves no version of the
// note's). The members stand for the audience the page shows: by noteAudience's rules that is the
// owner (in the token by id and name) and every member of the note's group, the owner alone able
// to change it. Reading the members is a third of what reading the audience cost (55 to 100 µs of
// the session's statement of every note page: docs/performance.md). A rule that lets someone else
// see a note (a share with a person) must add its people here, or kept pages miss them: the
// audience tests of kept pages (audience.test.ts, shared-page.test.ts) fail when they do.

/** A group member as the token holds them: [id, username], in the order of their ids. */
type Member = [number, string];

const byId = (a: Member, b: Member) => a[0] - b[0];

/** The token of a note, from its group's members (in whatever order they come). */
export function noteToken(viewVersion: number, username: string, groupName: string | null, members: Member[]): string {
  return JSON.stringify([viewVersion, username, groupName, members.sort(byId)]);
}

/** The members of the note's group among its audience, as noteToken takes them. */
export function groupMembersOf(audience: AudienceMember[]): Member[] {
  return audience.filter((person) => person.via.includes('group')).map((person) => [person.id, person.username]);
}

/** The members of the note's group (`notes.group_id` of the outer query), as one JSON column. */
function groupMembersColumn(db: Kysely<Database>) {
  return jsonRowsFrom(
    db,
    db
      .selectFrom('group_members')
      .innerJoin('users', 'users.id', 'group_members.user_id')
      .select(['users.id', 'users.username'])
      .where('group_members.group_id', '=', sql.ref<number>('notes.group_id'))
      .orderBy('users.id'),
  );
}

/** What a note's token is made of, if `userId` may see the note. */
function noteTokenRow(db: Kysely<Database>, userId: UserRef, id: number | Expression<number>) {
  return db
    .selectFrom('notes')
    .innerJoin('users', 'users.id', 'notes.owner_id')
    .leftJoin('groups', 'groups.id', 'notes.group_id')
    .select(['notes.view_version', 'notes.owner_id', 'users.username', 'groups.name', groupMembersColumn(db).as('members')])
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
  const [found] = parseJsonRows<{ view_version: number; owner_id: number; username: string; name: string | null; members: unknown }>(value);
  if (!found) return undefined;
  const members = parseJsonRows<{ id: number; username: string }>(found.members).map((member): Member => [Number(member.id), member.username]);
  return notePageToken(userId, found.owner_id, noteToken(found.view_version, found.username, found.name, members));
}

/**
 * What the page of a note is kept under for `userId`: the owner's own page (its actions, tags
 * and reminders), or the page every other reader gets, kept once for them all.
 */
export function notePageToken(userId: number, ownerId: number, token: string): ObjectToken {
  return { token, shared: ownerId !== userId };
}

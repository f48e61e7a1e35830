import type { FormErrors } from '../../platform/forms.js';
import { z } from 'zod';
import { ApiError } from '../../platform/api/errors.js';
import { pathIdSchema as pathId } from '../../platform/api/routes.js';
import { decodeCursor } from '../../platform/api/paging.js';
import { MAX_ID } from '../../platform/ids.js';
import type { GroupMember, GroupSummary } from './repository.js';

// The JSON shapes of groups and members.

export const groupParams = z.object({ pk: pathId.describe('The group id.') });
export const memberParams = z.object({ pk: pathId.describe('The group id.'), userPk: pathId.describe('The member’s user id.') });

/** A cursor holds the last id of a page; one past the id range would be an error on PostgreSQL. */
const idCursor = z.tuple([z.number().int().min(0).max(MAX_ID)]);

export function cursorId(cursor: string | undefined): number | undefined {
  return cursor === undefined ? undefined : decodeCursor(cursor, idCursor)[0];
}

/** The 400 of a service's form errors (the same words the page shows). */
export const invalidBody = (fields: FormErrors) => new ApiError(400, 'invalid', 'group_api.invalid_body', fields);

export const iso = (ms: number) => new Date(Number(ms)).toISOString();

export const groupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  owner: z.string().describe('The owner’s username.'),
  is_owner: z.boolean().describe('Whether the caller owns the group (and so may manage members and delete it).'),
  member_count: z.number().int(),
  created_at: z.string().describe('ISO 8601, UTC.'),
});

export const memberSchema = z.object({
  id: z.number().int().describe('The user id.'),
  username: z.string(),
  is_owner: z.boolean(),
  joined_at: z.string().describe('ISO 8601, UTC.'),
});

export const groupDetailSchema = groupSchema.extend({
  members: z.array(memberSchema).describe('Every member, by username.'),
});


export type GroupJson = z.infer<typeof groupSchema>;
export type MemberJson = z.infer<typeof memberSchema>;

export function groupJson(group: GroupSummary, callerId: number): GroupJson {
  return {
    id: group.id,
    name: group.name,
    owner: group.owner,
    is_owner: group.owner_id === callerId,
    member_count: group.member_count,
    created_at: iso(group.created_at),
  };
}

export function memberJson(member: GroupMember, ownerId: number): MemberJson {
  return { id: member.id, username: member.username, is_owner: member.id === ownerId, joined_at: iso(member.joined_at) };
}

import type { FastifyRequest } from 'fastify';
import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import { type CallerColumn, callerValue } from '../../platform/chain/caller-columns.js';

// The caller's groups, read with their session or API token (a caller column, in the statement
// that finds the caller): the notes list and the API need them, and need not ask again. With
// each group its view version, a part of the caller's view token: a kept page of group notes
// goes stale the moment anything of the group's changes (db/migrations/0007_view_versions.ts).

export const MEMBERSHIPS: CallerColumn = {
  name: 'groups',
  inViewToken: true,
  query: (db, userId) =>
    jsonRowsFrom(
      db,
      db
        .selectFrom('group_members')
        .innerJoin('groups', 'groups.id', 'group_members.group_id')
        .select(['groups.id', 'groups.view_version'])
        .where('group_members.user_id', '=', userId)
        .orderBy('groups.id'),
    ),
};

/** Parsed once per session or token object: each request has its own. */
const parsed = new WeakMap<object, readonly number[]>();

/** The ids of the caller's groups in id order, as read with their session or token; undefined when neither read them. */
export function callerGroupIds(request: FastifyRequest): readonly number[] | undefined {
  const holder = request.session ?? request.apiToken;
  if (!holder) return undefined;
  let ids = parsed.get(holder);
  if (!ids) {
    ids = Object.freeze(parseJsonRows<{ id: number }>(callerValue(request, MEMBERSHIPS.name) ?? []).map((group) => Number(group.id)));
    parsed.set(holder, ids);
  }
  return ids;
}

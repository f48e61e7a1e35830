import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NotFound } from '../../errors.js';
import { apiRoute } from '../../platform/api/routes.js';
import { nextUrl, pageOf, pageRows, pagingQuery } from '../../platform/api/paging.js';
import { cursorId, groupParams, invalidBody, memberJson, memberParams, memberSchema } from './api-schemas.js';
import { addMemberForm } from './forms.js';
import type { GroupsService } from './service.js';

// A group's members over JSON, with the group page's rules: members see them, only the owner
// adds and removes (a member or stranger gets the 404 of an absent group).

export function groupMembersApi(app: FastifyInstance, service: GroupsService): void {
  const { groups } = service;
  const TAG = 'groups';

  const memberGroup = async (callerId: number, groupId: number) => {
    const group = await groups.findMemberGroup(callerId, groupId);
    if (!group) throw new NotFound();
    return group;
  };
  const ownedGroup = async (callerId: number, groupId: number) => {
    const group = await groups.findOwnedGroup(callerId, groupId);
    if (!group) throw new NotFound();
    return group;
  };
  /** One member as the caller may see it; the 404 of an absent one otherwise. */
  const member = async (callerId: number, group: { id: number; owner_id: number }, userId: number) => {
    const [row] = await groups.pageMembers(callerId, group.id, 1, undefined, userId);
    if (!row) throw new NotFound();
    return memberJson(row, group.owner_id);
  };

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/groups/:pk/members/',
    tag: TAG,
    summary: 'The members of a group the caller belongs to, by user id.',
    params: groupParams,
    query: z.object(pagingQuery),
    response: pageOf(memberSchema),
    errors: [404],
    handler: async ({ user, params, query, request }) => {
      const group = await memberGroup(user.id, params.pk);
      const rows = await groups.pageMembers(user.id, group.id, query.limit + 1, cursorId(query.cursor));
      const page = pageRows(rows, query.limit, (row) => [row.id]);
      return { results: page.rows.map((row) => memberJson(row, group.owner_id)), next: nextUrl(request, page.cursor) };
    },
  });

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/groups/:pk/members/:userPk/',
    tag: TAG,
    summary: 'One member of a group the caller belongs to.',
    params: memberParams,
    response: memberSchema,
    errors: [404],
    handler: async ({ user, params }) => member(user.id, await memberGroup(user.id, params.pk), params.userPk),
  });

  apiRoute(app, {
    method: 'POST',
    path: '/api/v1/groups/:pk/members/',
    tag: TAG,
    summary: 'Adds a user to the group by username (owner only); they get a notification, as from the page.',
    params: groupParams,
    body: addMemberForm.strict(),
    status: 201,
    response: memberSchema,
    errors: [403, 404],
    handler: async ({ user, params, body, reply }) => {
      const group = await ownedGroup(user.id, params.pk);
      const added = await service.addMember(group, body.username, user.username);
      if (!added.ok) throw invalidBody(added.errors);
      // Set here rather than by `location`, which sees only the answer (the user, not the group).
      reply.header('location', `/api/v1/groups/${group.id}/members/${added.value.id}/`);
      return member(user.id, group, added.value.id);
    },
  });

  apiRoute(app, {
    method: 'DELETE',
    path: '/api/v1/groups/:pk/members/:userPk/',
    tag: TAG,
    summary: 'Removes a member (owner only; not the owner): their open chat sockets close, as from the page.',
    params: memberParams,
    status: 204,
    errors: [403, 404],
    handler: async ({ user, params }) => {
      const group = await ownedGroup(user.id, params.pk);
      const removed = await service.removeMember(group, params.userPk);
      if (removed.ok) return;
      // The owner is a member who may not be removed (the page's words); anyone else is not a member here.
      if (params.userPk === group.owner_id) throw invalidBody(removed.errors);
      throw new NotFound();
    },
  });
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NotFound } from '../../errors.js';
import { apiRoute } from '../../platform/api/routes.js';
import { nextUrl, pageOf, pageRows, pagingQuery } from '../../platform/api/paging.js';
import { cursorId, groupDetailSchema, groupJson, groupParams, groupSchema, invalidBody, memberJson } from './api-schemas.js';
import { groupForm } from './forms.js';
import type { GroupsService } from './service.js';

// Groups over JSON, with the pages' rules (routes.ts): members read,
// the owner deletes, a member who is not the owner may leave, anyone else gets the 404 of an
// absent group. No rename: the pages have none. Members: api-members.ts; chat: api-chat.ts.

/** `/api/v1/groups/...` for a user; every lookup is the page's own scoped repository query. */
export function groupsApi(app: FastifyInstance, service: GroupsService): void {
  const { groups } = service;
  const TAG = 'groups';

  /** The group as its page shows it (members by username), or the 404 of an absent one. */
  const detail = async (callerId: number, groupId: number) => {
    const page = await groups.findMemberGroupPage(callerId, groupId);
    if (!page) throw new NotFound();
    return { ...groupJson(page.group, callerId), members: page.members.map((member) => memberJson(member, page.group.owner_id)) };
  };

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/groups/',
    tag: TAG,
    summary: 'The groups the caller belongs to, oldest first.',
    query: z.object(pagingQuery),
    response: pageOf(groupSchema),
    handler: async ({ user, query, request }) => {
      // One more than the page: whether there is a next page, without counting.
      const rows = await groups.pageSummariesForMember(user.id, query.limit + 1, cursorId(query.cursor));
      const page = pageRows(rows, query.limit, (row) => [row.id]);
      return { results: page.rows.map((group) => groupJson(group, user.id)), next: nextUrl(request, page.cursor) };
    },
  });

  apiRoute(app, {
    method: 'POST',
    path: '/api/v1/groups/',
    tag: TAG,
    summary: 'Creates a group: the caller becomes its owner and first member. Names are unique per owner.',
    body: groupForm.strict(),
    status: 201,
    response: groupDetailSchema,
    location: (group) => `/api/v1/groups/${group.id}/`,
    handler: async ({ user, body }) => {
      const created = await service.create(user.id, body.name);
      if (!created.ok) throw invalidBody(created.errors);
      return detail(user.id, created.value.id);
    },
  });

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/groups/:pk/',
    tag: TAG,
    summary: 'A group the caller belongs to, with its members.',
    params: groupParams,
    response: groupDetailSchema,
    errors: [404],
    handler: async ({ user, params }) => detail(user.id, params.pk),
  });

  apiRoute(app, {
    method: 'DELETE',
    path: '/api/v1/groups/:pk/',
    tag: TAG,
    summary: 'Deletes a group (owner only) with its members and chat; notes and lists of the group keep their owner and lose the group.',
    params: groupParams,
    status: 204,
    errors: [403, 404],
    handler: async ({ user, params }) => {
      const group = await groups.findOwnedGroup(user.id, params.pk);
      if (!group) throw new NotFound();
      // The page's own deletion: open chat sockets of the group close through the hub.
      await service.delete(group);
    },
  });

  apiRoute(app, {
    method: 'POST',
    path: '/api/v1/groups/:pk/leave/',
    tag: TAG,
    summary: 'The caller leaves the group (any member but the owner, who may delete it instead).',
    params: groupParams,
    status: 204,
    errors: [403, 404],
    handler: async ({ user, params }) => {
      const group = await groups.findMemberGroup(user.id, params.pk);
      // As on the page: the owner cannot leave, and that is a change they may not make (404).
      if (!group || group.owner_id === user.id) throw new NotFound();
      if (!(await service.leave(group.id, user.id))) throw new NotFound();
    },
  });
}

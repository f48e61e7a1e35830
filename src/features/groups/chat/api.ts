import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NotFound } from '../../../errors.js';
import { apiRoute } from '../../../platform/api/routes.js';
import { encodeCursor, nextUrl, pageOf, pagingQuery } from '../../../platform/api/paging.js';
import { MAX_ID } from '../../../platform/ids.js';
import { cursorId, groupParams } from '../api-schemas.js';
import type { ChatService } from './service.js';
import { chatFrame } from './forms.js';
import type { GroupsRepository } from '../repository.js';

/** A chat message as the API shows it: the same fields as the socket's. */
export const messageSchema = z.object({
  message_id: z.number().int(),
  author: z.string().describe('The author’s username.'),
  content: z.string(),
  timestamp: z.string().describe('ISO 8601, UTC.'),
});

// A group's chat over JSON: the history the socket and `/groups/<pk>/chat/messages/` send, and
// posting, which is the socket's own path (ChatService.post: stored while a member, published
// through the hub to the group's sockets on every instance).

const messageParams = groupParams.extend({ messageId: groupParams.shape.pk.describe('The message id.') });

export function chatApi(app: FastifyInstance, chat: ChatService, groups: GroupsRepository): void {
  const TAG = 'chat';

  const memberGroup = async (callerId: number, groupId: number) => {
    const group = await groups.findMemberGroup(callerId, groupId);
    if (!group) throw new NotFound();
    return group;
  };

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/groups/:pk/messages/',
    tag: TAG,
    summary:
      'The latest messages of a group the caller belongs to, oldest first within a page as the chat shows them; `next` goes to the page of older ones.',
    params: groupParams,
    query: z.object(pagingQuery),
    response: pageOf(messageSchema),
    errors: [404],
    handler: async ({ user, params, query, request }) => {
      const group = await memberGroup(user.id, params.pk);
      // One more than the page, oldest first: when it came, there are older messages to page to.
      const rows = await chat.history(group.id, user.id, cursorId(query.cursor), query.limit + 1);
      const page = rows.length > query.limit ? rows.slice(1) : rows;
      const next = rows.length > query.limit ? encodeCursor([page[0]!.message_id]) : null;
      return { results: page, next: nextUrl(request, next) };
    },
  });

  apiRoute(app, {
    method: 'GET',
    path: '/api/v1/groups/:pk/messages/:messageId/',
    tag: TAG,
    summary: 'One message of a group the caller belongs to.',
    params: messageParams,
    response: messageSchema,
    errors: [404],
    handler: async ({ user, params }) => {
      const group = await memberGroup(user.id, params.pk);
      // The history's own scoped query: the latest message up to this id, if it is this one (with
      // no bound for the largest id, whose successor PostgreSQL's integer column cannot compare).
      const [message] = await chat.history(group.id, user.id, params.messageId < MAX_ID ? params.messageId + 1 : undefined, 1);
      if (message?.message_id !== params.messageId) throw new NotFound();
      return message;
    },
  });

  apiRoute(app, {
    method: 'POST',
    path: '/api/v1/groups/:pk/messages/',
    tag: TAG,
    summary: 'Posts a message (1 to 2000 characters once trimmed): delivered live to the group’s chat sockets like one sent over the socket.',
    params: groupParams,
    body: chatFrame.strict(),
    status: 201,
    response: messageSchema,
    errors: [403, 404],
    handler: async ({ user, params, body, reply }) => {
      const group = await memberGroup(user.id, params.pk);
      // Null when the membership went between the check and the insert: then it is not the caller's group.
      const message = await chat.post(group.id, { id: user.id, username: user.username }, body.content);
      if (!message) throw new NotFound();
      // Set here rather than by `location`, which sees only the message (not its group).
      reply.header('location', `/api/v1/groups/${group.id}/messages/${message.message_id}/`);
      return message;
    },
  });
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NotFound } from '../../../errors.js';
import { apiRoute, checkIfMatch } from '../../../platform/api/routes.js';
import { encodeCursor, nextUrl, pageOf, pagingQuery } from '../../../platform/api/paging.js';
import { cursorId, groupParams } from '../api-schemas.js';
import type { ChatService } from './service.js';
import { chatFrame } from './forms.js';
import { EDIT_WINDOW_MS } from './message-changes.js';
import type { GroupsRepository } from '../repository.js';

/** A chat message as the API shows it: the same fields as the socket's. */
export const messageSchema = z.object({
  message_id: z.number().int(),
  author: z.string().describe('The author’s username.'),
  content: z.string(),
  timestamp: z.string().describe('ISO 8601, UTC.'),
  edited_at: z.string().nullable().describe('When its author last edited it, ISO 8601 UTC; null if never.'),
  deleted: z.boolean().describe('Deleted: `content` is empty, and the chat shows “message deleted” in its place.'),
});

// A group's chat over JSON: the history the socket and `/groups/<pk>/chat/messages/` send,
// posting, which is the socket's own path (ChatService.post: stored while a member, published
// through the hub to the group's sockets on every instance), and editing and deleting, the pages'
// own (ChatService.edit and .remove), published the same way.

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
      const message = await chat.find(group.id, user.id, params.messageId);
      if (!message) throw new NotFound();
      return message;
    },
  });

  const minutes = EDIT_WINDOW_MS / 60_000;

  // Edits and deletes are decided by one statement each (message-changes.ts), so a caller who may
  // not make the change gets the same 404 as for a message that does not exist.
  apiRoute(app, {
    method: 'PATCH',
    path: '/api/v1/groups/:pk/messages/:messageId/',
    tag: TAG,
    summary: `Edits your own message within ${minutes} minutes of posting it (1 to 2000 characters once trimmed); with If-Match, only if it is unchanged since you read it. Delivered live to the group’s chat sockets as an \`edited\` frame.`,
    params: messageParams,
    body: chatFrame.strict(),
    response: messageSchema,
    errors: [403, 404, 412],
    handler: async ({ user, params, body, request }) => {
      const precondition = request.headers['if-match'] === undefined ? undefined : (current: z.infer<typeof messageSchema>) => checkIfMatch(request, current);
      const message = await chat.edit(params.pk, { id: user.id, username: user.username }, params.messageId, body.content, precondition);
      if (!message) throw new NotFound();
      return message;
    },
  });

  apiRoute(app, {
    method: 'DELETE',
    path: '/api/v1/groups/:pk/messages/:messageId/',
    tag: TAG,
    summary: `Deletes a message: your own within ${minutes} minutes of posting it, or, in a group you own, every member’s, whenever. It stays in the history, empty, with \`deleted\` true; the group’s chat sockets get a \`deleted\` frame.`,
    params: messageParams,
    status: 204,
    errors: [403, 404],
    handler: async ({ user, params }) => {
      if (!(await chat.remove(params.pk, user.id, params.messageId))) throw new NotFound();
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

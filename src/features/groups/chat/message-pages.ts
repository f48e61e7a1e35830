import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFound } from '../../../errors.js';
import { parseForm } from '../../../platform/forms.js';
import { idOr404, pathId } from '../../../platform/ids.js';
import { viewContext } from '../../../platform/views/context.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { messageForm } from './forms.js';
import { type MessageChange, MessageChanges } from './message-changes.js';
import { type ChangeableMessage, chatPath, DeleteMessagePage, EditMessagePage } from './message-views.js';
import type { ChatService } from './service.js';

type MessageParams = { Params: { pk: string; messageId: string } };

/**
 * The pages that edit and delete a chat message, which work without JavaScript: a form (GET) and
 * its POST, back to the chat. The POST's one statement decides (ChatService.edit, .remove); the
 * GET asks the same question so that whoever may not change the message gets the POST's 404.
 */
export function messageChangePages(app: FastifyInstance, db: Kysely<Database>, chat: ChatService): void {
  const changes = new MessageChanges(db);

  const changeableOr404 = async (request: FastifyRequest<MessageParams>, change: MessageChange): Promise<ChangeableMessage> => {
    const groupId = pathId(request);
    const message = await changes.findChangeable(groupId, idOr404(request.params.messageId), request.user!.id, change);
    if (!message) throw new NotFound();
    return { ...message, groupId };
  };

  app.get<MessageParams>('/groups/:pk/chat/messages/:messageId/edit/', async (request, reply) =>
    reply.render(EditMessagePage({ ctx: viewContext(request), message: await changeableOr404(request, 'edit') })),
  );

  app.post<MessageParams>('/groups/:pk/chat/messages/:messageId/edit/', async (request, reply) => {
    const user = request.user!;
    const form = parseForm(messageForm, request.body);
    if (!form.ok) return reply.render(EditMessagePage({ ctx: viewContext(request), message: await changeableOr404(request, 'edit'), values: form.values, errors: form.errors }), 400);
    const groupId = pathId(request);
    if (!(await chat.edit(groupId, { id: user.id, username: user.username }, idOr404(request.params.messageId), form.data.content))) throw new NotFound();
    request.flash('chat.message_edited');
    return reply.redirect(chatPath(groupId), 302);
  });

  app.get<MessageParams>('/groups/:pk/chat/messages/:messageId/delete/', async (request, reply) =>
    reply.render(DeleteMessagePage({ ctx: viewContext(request), message: await changeableOr404(request, 'delete') })),
  );

  app.post<MessageParams>('/groups/:pk/chat/messages/:messageId/delete/', async (request, reply) => {
    const groupId = pathId(request);
    if (!(await chat.remove(groupId, request.user!.id, idOr404(request.params.messageId)))) throw new NotFound();
    request.flash('chat.message_deleted');
    return reply.redirect(chatPath(groupId), 302);
  });
}

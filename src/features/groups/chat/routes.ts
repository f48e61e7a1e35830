import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { BadRequest, Forbidden, NotFound } from '../../../errors.js';
import { isTrustedOrigin } from '../../../platform/chain/csrf.js';
import { type Message, type MessageKey, requestTranslator, translate, type Translator } from '../../../platform/i18n/index.js';
import { issueMessage } from '../../../platform/forms.js';
import { parseId, pathId } from '../../../platform/ids.js';
import type { NavigationLink } from '../../../platform/navigation.js';
import type { Services } from '../../../services.js';
import { type ViewContext, viewContext } from '../../../platform/views/context.js';
import { chatApi } from './api.js';
import { chatCardRoutes, linkPaths } from './cards.js';
import { lostAccessCheck } from './access.js';
import { messageChangePages } from './message-pages.js';
import { CLOSE_NO_ACCESS, type ChatConnection, ChatConnections } from './connections.js';
import { ReadMarkBuffer } from './read-marks.js';
import { ChatReads, unreadChatTotalQuery } from './reads.js';
import { ChatService } from './service.js';
import { ChatPage } from './views.js';
import { ChatListPage } from './list-views.js';
import { chatFrame, historyQuery } from './forms.js';
import { GroupsRepository } from '../repository.js';

const PING_INTERVAL_MS = 30_000;

/** The chat's link in every page's navigation, with the caller's unread messages in all their groups. */
const CHAT_LINK: NavigationLink = {
  label: 'nav.chat',
  href: '/chat/',
  current: /^\/(?:chat|groups\/\d+\/chat)\/$/,
  count: { counted: 'nav.unread_chat_messages', query: unreadChatTotalQuery },
};

/**
 * The page's context with the navigation's chat count less this group's unread messages: the
 * session counted them before the page marked them read. (Past COUNT_CAP the total was cut short,
 * so what is left may be fewer than the other groups hold; the next page counts afresh.)
 */
function readingGroup(ctx: ViewContext, unreadHere: number): ViewContext {
  if (!ctx.user || unreadHere === 0) return ctx;
  const navigation = ctx.navigation.map((entry) => (entry.link === CHAT_LINK ? { ...entry, count: Math.max(0, entry.count - unreadHere) } : entry));
  return { ...ctx, navigation };
}

export const chatPages: FastifyPluginAsync<Services> = async (app, { config, db, hub, sessions, notifications, objectKinds }) => {
  const groups = new GroupsRepository(db);
  const chat = new ChatService(db, hub, notifications);
  const lostAccess = lostAccessCheck(sessions, groups);
  chatApi(app, chat, groups);
  chatCardRoutes(app, db, groups, objectKinds);
  messageChangePages(app, db, chat);

  const reads = new ChatReads(db);
  const readMarks = new ReadMarkBuffer((mark) => reads.markRead(mark), (error) => app.log.error({ err: error }, 'chat read mark failed'));
  sessions.addNavigationLink(CHAT_LINK);
  const connections = new ChatConnections(hub, {
    rateBurst: config.chatRateBurst,
    ratePerSecond: config.chatRatePerSecond,
    pingIntervalMs: PING_INTERVAL_MS,
    lostAccess,
    readMarks,
    onError: (error) => app.log.error({ err: error }, 'chat access check failed'),
  });
  app.addHook('onClose', async () => {
    connections.close();
    await readMarks.close();
  });

  const memberGroup = async (request: FastifyRequest) => {
    const group = await groups.findMemberGroup(request.user!.id, pathId(request));
    if (!group) throw new NotFound();
    return group;
  };

  // The navigation's Chat: straight to the chat of one's only group, else the list of them.
  app.get('/chat/', async (request, reply) => {
    const chats = await groups.listChatsForMember(request.user!.id);
    if (chats.length === 1) return reply.redirect(`/groups/${chats[0]!.id}/chat/`);
    return reply.render(ChatListPage({ ctx: viewContext(request), chats }));
  });

  app.get('/groups/:pk/chat/', async (request, reply) => {
    const group = await groups.findChatPageGroup(request.user!.id, pathId(request));
    if (!group) throw new NotFound();
    const history = await chat.history(group.id, request.user!.id);
    // The page shows the latest messages (to readers without JavaScript too): they are read.
    if (history.length > 0) await reads.markRead({ userId: request.user!.id, groupId: group.id, messageId: history.at(-1)!.message_id });
    return reply.render(ChatPage({ ctx: readingGroup(viewContext(request), group.unread), group, history, members: group.members, linkPaths: linkPaths(objectKinds) }));
  });

  app.get('/groups/:pk/chat/messages/', async (request, reply) => {
    const group = await memberGroup(request);
    const query = historyQuery.safeParse(request.query);
    if (!query.success) throw new BadRequest(query.error.issues[0]!.message);
    return reply.header('cache-control', 'no-store').send({ messages: await chat.history(group.id, request.user!.id, query.data.before) });
  });

  /**
   * Runs before the upgrade: every refusal is a plain HTTP 403 and the socket is never accepted.
   * The route is public only so that the login layer does not answer a handshake with a redirect.
   * Access is checked again once the socket is registered (below).
   */
  async function refuseHandshake(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    if (!request.user || !request.session) throw new Forbidden('chat.log_in');
    const origin = request.headers.origin;
    // Browsers always send Origin on a WebSocket handshake; a foreign one is cross-site hijacking.
    if (!origin || !isTrustedOrigin(request, config, origin)) throw new Forbidden('chat.bad_origin');
    const groupId = parseId((request.params as { pk?: string }).pk);
    if (groupId === null || !(await groups.isMember(groupId, request.user.id))) throw new Forbidden('chat.not_member');
  }

  /** The socket's `{"type":"error","error":"<reason>"}`: the reason in the sender's language. */
  const sendError = (socket: WebSocket, t: Translator, reason: MessageKey | Message) =>
    socket.send(JSON.stringify({ type: 'error', error: translate(t, reason) }));

  async function handleFrame(connection: ChatConnection, author: { id: number; username: string }, t: Translator, data: RawData, isBinary: boolean) {
    const { socket } = connection;
    if (isBinary) return sendError(socket, t, 'chat.frame_binary');
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
    } catch {
      return sendError(socket, t, 'chat.frame_not_json');
    }
    const frame = chatFrame.safeParse(parsed);
    if (!frame.success) return sendError(socket, t, issueMessage(frame.error.issues[0]!));
    const message = await chat.post(connection.groupId, author, frame.data.content);
    if (!message) socket.close(CLOSE_NO_ACCESS, 'No longer a member of this group');
  }

  app.get('/ws/groups/:pk/chat/', { websocket: true, config: { public: true }, preValidation: refuseHandshake }, async (socket, request) => {
    const author = { id: request.user!.id, username: request.user!.username };
    // The handshake's language (the user's setting, else the browser's) for the errors sent back.
    const t = requestTranslator(request);
    const connection = connections.add(socket, { groupId: pathId(request), userId: author.id, sessionKey: request.session!.key });
    // Frames wait in the connection's queue behind this set-up: none is stored before access is
    // confirmed and the history sent, so a client's first messages come back as messages, after it.
    connection.queue = (async () => {
      try {
        // Registered first, checked again second: a removal or logout published from the
        // registration on reaches this socket as an event, and one that landed between the
        // handshake's check and the registration is seen here (else it waited for the sweep).
        if ((await lostAccess([connection])).length > 0) {
          socket.close(CLOSE_NO_ACCESS, 'Access ended');
          return;
        }
        connections.sendHistory(connection, await chat.history(connection.groupId, author.id));
      } catch (error) {
        request.log.error({ err: error }, 'chat history failed');
        socket.close(1011, 'History unavailable');
      }
    })();
    socket.on('message', (data, isBinary) => {
      connection.alive = true;
      // Counted as it arrives, not once its turn comes: the queue never holds more than the limit lets in.
      if (!connection.bucket.take()) return sendError(socket, t, 'chat.rate_limited');
      connection.queue = connection.queue
        .then(() => (socket.readyState === socket.OPEN ? handleFrame(connection, author, t, data, isBinary) : undefined))
        .catch((error: unknown) => {
          request.log.error({ err: error }, 'chat frame failed');
          sendError(socket, t, 'chat.not_stored');
        });
    });
  });
};

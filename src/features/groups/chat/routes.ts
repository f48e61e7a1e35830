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
import { ReadMarkWriter } from './read-marks.js';
import { ChatReads, unreadChatTotalQuery } from './reads.js';
import { ChatService } from './service.js';
import { ChatPage } from './views.js';
import { ChatListPage } from './list-views.js';
import { chatFrame, historyQuery, visibilityFrame } from './forms.js';
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
 * The page's context with the navigation's counts read again: the session counted them before
 * the page marked the group's messages and mentions read. Only when reading moved something.
 */
async function readingGroup(ctx: ViewContext, sessions: Services['sessions'], userId: number, moved: boolean): Promise<ViewContext> {
  if (!moved) return ctx;
  const navigation = (await sessions.navigationCounts([userId])).get(userId);
  return navigation ? { ...ctx, navigation } : ctx;
}

export const chatPages: FastifyPluginAsync<Services> = async (app, { config, db, hub, sessions, notifications, objectKinds }) => {
  const groups = new GroupsRepository(db);
  const lostAccess = lostAccessCheck(sessions, groups);
  const reads = new ChatReads(db, hub, notifications);
  const readMarks = new ReadMarkWriter((marks) => reads.read(marks), (error) => app.log.error({ err: error }, 'chat read mark failed'));
  const chat = new ChatService(db, hub, notifications, () => readMarks.settled());
  chatApi(app, chat, groups);
  chatCardRoutes(app, db, groups, objectKinds);
  messageChangePages(app, db, chat);

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
    await readMarks.settled();
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
    const userId = request.user!.id;
    const history = await chat.history(group.id, userId);
    // The page shows the latest messages (to readers without JavaScript too): they are read, and
    // so are the mentions of the reader in them; the reader's other pages hear it.
    const newest = history.at(-1);
    const outcome = newest ? await reads.read([{ userId, groupId: group.id, messageId: newest.message_id, at: Date.parse(newest.timestamp) }]) : { chat: [], mentions: [] };
    const ctx = await readingGroup(viewContext(request), sessions, userId, outcome.chat.length + outcome.mentions.length > 0);
    return reply.render(ChatPage({ ctx, group, history, members: group.members, linkPaths: linkPaths(objectKinds) }));
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
    // The page went out of sight or came back (chat.js): only what is shown in sight is read.
    const visibility = visibilityFrame.safeParse(parsed);
    if (visibility.success) return connections.setVisible(connection, visibility.data.visible);
    const frame = chatFrame.safeParse(parsed);
    if (!frame.success) return sendError(socket, t, issueMessage(frame.error.issues[0]!));
    const message = await chat.post(connection.groupId, author, frame.data.content);
    if (!message) socket.close(CLOSE_NO_ACCESS, 'No longer a member of this group');
  }

  app.get('/ws/groups/:pk/chat/', { websocket: true, config: { public: true }, preValidation: refuseHandshake }, async (socket, request) => {
    const author = { id: request.user!.id, username: request.user!.username };
    // The handshake's language (the user's setting, else the browser's) for the errors sent back.
    const t = requestTranslator(request);
    // `?visible=0`: the page was opened out of sight (a tab in the background), so nothing it is sent is read yet.
    const visible = (request.query as { visible?: unknown }).visible !== '0';
    const connection = connections.add(socket, { groupId: pathId(request), userId: author.id, sessionKey: request.session!.key, visible });
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

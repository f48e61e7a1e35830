import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden, HttpError, NotFound, ServiceUnavailable } from '../../errors.js';
import { isTrustedOrigin } from '../../platform/chain/csrf.js';
import { idOr404, parseId, pathId } from '../../platform/ids.js';
import type { Services } from '../../services.js';
import { viewContext } from '../../platform/views/context.js';
import { notificationsApi } from './api.js';
import { NotificationsRepository } from './repository.js';
import { BELL } from './bell.js';
import { BellSockets, CLOSE_NO_ACCESS, type LiveCounts } from './sockets.js';
import { NotificationsPage, pageUrl } from './views.js';

const MAX_PAGE = 1_000;
const PING_INTERVAL_MS = 30_000;
/** Tabs one user may have open with a live bell on one instance; more still work, without live counts. */
const SOCKETS_PER_USER = 20;
const SOCKETS_TOTAL = 20_000;

/**
 * `link` as a path of this site, percent-encoded for a Location header; null when it is not one
 * (`//host`, `/\host`, a scheme, control characters: whatever a browser would take elsewhere).
 */
export function sameSitePath(link: string): string | null {
  if (!link.startsWith('/') || link.startsWith('//') || link.includes('\\') || [...link].some((char) => char <= '\u001f' || char === '\u007f')) return null;
  const base = 'http://same-site.invalid';
  try {
    const url = new URL(link, base);
    return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}

/** The page a POST came from (a hidden `page` field), to go back to; page 1 for anything else. */
function returnPage(body: unknown): number {
  const raw = body && typeof body === 'object' && 'page' in body ? body.page : undefined;
  const page = parseId(raw);
  return page !== null && page <= MAX_PAGE ? page : 1;
}

export const notificationPages: FastifyPluginAsync<Services> = async (app, { config, db, hub, sessions, notifications }) => {
  const repository = new NotificationsRepository(db);
  const bells = new BellSockets(hub, {
    perUser: SOCKETS_PER_USER,
    total: SOCKETS_TOTAL,
    pingIntervalMs: PING_INTERVAL_MS,
    counts: async (userIds) => {
      const counts = new Map<number, LiveCounts>();
      for (const [userId, navigation] of await sessions.navigationCounts(userIds)) {
        const links: Record<string, number> = {};
        for (const entry of navigation) if (entry.link.count && entry.link !== BELL) links[entry.link.href] = entry.count;
        counts.set(userId, { unread: navigation.find((entry) => entry.link === BELL)?.count ?? 0, links });
      }
      return counts;
    },
    liveKeys: (keys) => sessions.liveKeys(keys),
    onError: (error) => app.log.error({ err: error }, 'notification count failed'),
  });
  app.addHook('onClose', async () => bells.close());
  notificationsApi(app, { db, notifications });

  app.get<{ Querystring: { page?: string | string[] } }>('/notifications/', async (request, reply) => {
    const raw = request.query.page;
    const page = raw === undefined ? 1 : idOr404(Array.isArray(raw) ? raw[0] : raw);
    if (page > MAX_PAGE) throw new NotFound();
    const result = await repository.page(request.user!.id, page);
    if (page > 1 && result.notifications.length === 0) throw new NotFound();
    return reply.render(NotificationsPage({ ctx: viewContext(request), result }));
  });

  app.post('/notifications/read/', async (request, reply) => {
    const userId = request.user!.id;
    if ((await repository.markAllRead(userId)) > 0) notifications.announce([userId]);
    return reply.redirect(pageUrl(returnPage(request.body)), 302);
  });

  app.post('/notifications/:pk/read/', async (request, reply) => {
    const userId = request.user!.id;
    // Another user's notification is "none such", the same 404 as an absent one.
    if (!(await repository.markRead(userId, pathId(request)))) throw new NotFound();
    notifications.announce([userId]);
    return reply.redirect(pageUrl(returnPage(request.body)), 302);
  });

  // Following a notification from the list: marks it read, then goes where it points (a GET, so
  // that it is a plain link that opens in a new tab too). Only ever to a path of this site: one
  // stored otherwise (a row from an import) goes back to the list. Another user's is a 404.
  app.get('/notifications/:pk/open/', async (request, reply) => {
    const userId = request.user!.id;
    const notification = await repository.findOwned(userId, pathId(request));
    if (!notification) throw new NotFound();
    if (notification.read_at === null && (await repository.markRead(userId, notification.id))) notifications.announce([userId]);
    return reply.header('cache-control', 'no-store').redirect(sameSitePath(notification.link) ?? '/notifications/', 302);
  });

  /**
   * Runs before the upgrade: a refusal is a plain HTTP status and the socket is never accepted.
   * Public only so that the login layer does not answer a handshake with a redirect.
   */
  async function refuseHandshake(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    if (!request.user || !request.session) throw new Forbidden('notifications.log_in');
    const origin = request.headers.origin;
    // Browsers always send Origin on a WebSocket handshake; a foreign one is cross-site hijacking.
    if (!origin || !isTrustedOrigin(request, config, origin)) throw new Forbidden('notifications.bad_origin');
    const refusal = bells.refusal(request.user.id);
    if (refusal === 'user') throw new HttpError(429, 'notifications.too_many_pages');
    if (refusal === 'total') throw new ServiceUnavailable('notifications.too_many_connections', 30);
  }

  app.get('/ws/notifications/', { websocket: true, config: { public: true }, preValidation: refuseHandshake }, (socket, request) => {
    const userId = request.user!.id;
    const sessionKey = request.session!.key;
    const bell = bells.add(socket, { userId, sessionKey });
    // Registered first, checked and counted second: a logout or a change committed since the
    // handshake's session read is seen here, and any later one arrives as an event.
    sessions
      .liveKeys([sessionKey])
      .then((live) => (live.has(sessionKey) ? bells.greet(bell) : socket.close(CLOSE_NO_ACCESS, 'Your session ended')))
      .catch((error: unknown) => {
        request.log.error({ err: error }, 'notification socket set-up failed');
        socket.close(1011, 'Unavailable');
      });
  });
};

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden, HttpError } from '../../errors.js';
import { isTrustedOrigin } from '../../platform/chain/csrf.js';
import { requestTranslator } from '../../platform/i18n/index.js';
import { parseId, pathId } from '../../platform/ids.js';
import type { Services } from '../../services.js';
import { type LiveListKind, LiveListSockets } from './live-sockets.js';
import type { ListRole } from './kind.js';

const PING_INTERVAL_MS = 30_000;
/** Tabs of one user with a live list of this kind open, on one instance. */
const SOCKETS_PER_USER = 20;
/** Viewers of one list on one instance: a household, or a crowd in a benchmark. */
const SOCKETS_PER_LIST = 1_000;

/**
 * `/ws/todo/<pk>/` or `/ws/shopping/<pk>/`: a list page's live updates. The server only speaks:
 * `{"type":"item","id":1,"html":"<li…>","summary":{…}}` for an added or changed item (its row
 * as the page renders it for this viewer's role), `{"type":"removed","id":1,"summary":{…}}`,
 * `{"type":"reload"}` when the viewer's permission changed, `{"type":"deleted"}` when the list was
 * deleted. Losing access closes with 4403 (after `deleted`, for a deleted list).
 */
export function liveListRoutes(app: FastifyInstance, { config, hub, sessions }: Services, kind: LiveListKind): void {
  const sockets = new LiveListSockets(hub, {
    kind,
    perUser: SOCKETS_PER_USER,
    perList: SOCKETS_PER_LIST,
    pingIntervalMs: PING_INTERVAL_MS,
    liveKeys: (keys) => sessions.liveKeys(keys),
    onError: (error) => app.log.error({ err: error }, 'live list access check failed'),
  });
  app.addHook('onClose', async () => sockets.close());
  /** The role the handshake found, for the socket it accepts. */
  const handshakeRoles = new WeakMap<FastifyRequest, ListRole>();

  /**
   * Runs before the upgrade: every refusal is a plain HTTP status and the socket is never
   * accepted. Public only so that the login layer does not answer a handshake with a redirect.
   */
  async function refuseHandshake(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    if (!request.user || !request.session) throw new Forbidden('lists.live_log_in');
    const origin = request.headers.origin;
    // Browsers always send Origin on a WebSocket handshake; a foreign one is cross-site hijacking.
    if (!origin || !isTrustedOrigin(request, config, origin)) throw new Forbidden('lists.live_origin');
    const listId = parseId((request.params as { pk?: string }).pk);
    // A hidden list is refused like a missing one, so ids cannot be probed.
    const role = listId === null ? undefined : await kind.roleOf(request.user.id, listId);
    if (listId === null || role === undefined) throw new Forbidden('lists.live_no_list');
    const refusal = sockets.refusal(request.user.id, { kind: kind.name, id: listId });
    if (refusal) throw new HttpError(429, refusal);
    handshakeRoles.set(request, role);
  }

  app.get(`/ws/${kind.name}/:pk/`, { websocket: true, config: { public: true }, preValidation: refuseHandshake }, (socket, request) => {
    const user = request.user!;
    const viewer = {
      userId: user.id,
      sessionKey: request.session!.key,
      role: handshakeRoles.get(request) ?? 'read',
      timezone: user.timezone,
      // The page's language (the user's setting, else the browser's): live rows speak it too.
      language: requestTranslator(request).language,
    };
    const live = sockets.add(socket, { kind: kind.name, id: pathId(request) }, viewer);
    // Registered first, checked again second: a change committed between the handshake's check
    // and the registration is seen here, and any later one arrives as an event.
    sockets.recheck([live]).catch((error: unknown) => {
      request.log.error({ err: error }, 'live list access check failed');
      socket.close(1011, 'Access check failed');
    });
  });
}

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pathOf } from '../url.js';

/** An upgrade request is answered (101, or an HTTP refusal) within this, or its socket is cut. */
const ANSWER_TIMEOUT_MS = 10_000;
/** After a refusal, how long the client has to close its side before the socket is cut. */
const LINGER_MS = 1_000;

/**
 * Gives every upgrade request's socket an owner until it is closed. Node hands an upgrade's
 * socket over raw: no HTTP parser, no keep-alive, no timeout. `ws` owns it once the handshake
 * is accepted; @fastify/websocket destroys it after a refusal only if its own onRequest hook
 * ran, which a refusal by an earlier layer (the Host check, the trailing-slash redirect, the
 * HTTPS redirect) skips: such a socket stayed open for good, even after the client had closed
 * it, and a shutdown waited for it forever. Here any answer over HTTP to an upgrade says
 * `Connection: close` and ends the socket once sent; an upgrade answered by nobody is cut.
 */
export function guardUpgrades(app: FastifyInstance): void {
  const owners = new WeakMap<IncomingMessage, { socket: Duplex; timer: NodeJS.Timeout }>();
  const release = (request: IncomingMessage) => {
    const owned = owners.get(request);
    if (!owned) return undefined;
    owners.delete(request);
    clearTimeout(owned.timer);
    return owned.socket;
  };

  // Before @fastify/websocket's listener, which routes the request at once.
  app.server.prependListener('upgrade', (request: IncomingMessage, socket: Duplex) => {
    const timer = setTimeout(() => {
      owners.delete(request);
      app.log.warn({ path: pathOf(request.url ?? '') }, 'upgrade request not answered in time; socket cut');
      socket.destroy();
    }, ANSWER_TIMEOUT_MS);
    timer.unref();
    socket.once('close', () => release(request));
    owners.set(request, { socket, timer });
  });
  // Accepted: the WebSocket owns the socket now (pings, close handshake, shutdown).
  app.websocketServer.on('connection', (_socket, request: IncomingMessage) => release(request));

  app.addHook('onSend', (request, reply, payload, done) => {
    if (owners.has(request.raw)) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    const socket = release(request.raw);
    if (socket) closeAfterAnswer(socket);
    done();
  });
}

/** Ends a socket whose answer was sent; cut if the client does not close its side soon. */
function closeAfterAnswer(socket: Duplex): void {
  // What the client still sends (frames of a WebSocket it believes open) is read and dropped,
  // so that closing sends a FIN after the answer rather than a reset that could discard it.
  socket.resume();
  socket.once('end', () => socket.destroy());
  const cut = setTimeout(() => socket.destroy(), LINGER_MS);
  cut.unref();
  socket.once('close', () => clearTimeout(cut));
  socket.end();
}

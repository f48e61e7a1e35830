import type { IncomingMessage } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** From now on every answer says `Connection: close`: the connection ends with it. */
    startDraining(): void;
    /** Open HTTP connections, not counting those upgraded to WebSockets. */
    httpConnections(): number;
    /** Destroys every open connection, upgraded ones included (the end of a shutdown's bound); how many. */
    cutConnections(): number;
  }
}

/**
 * Graceful shutdown, the part Fastify leaves out. Once draining (stopAccepting below, or
 * close()), every answer carries `Connection: close`, including that of a request already in
 * flight, so no connection is left idle to be cut while a proxy is sending on it.
 */
export const drainOnClose = fp(async (app) => {
  let draining = false;
  app.decorate('startDraining', () => {
    draining = true;
  });
  // WebSockets are not waited for: the shutdown closes them (1001) once HTTP has drained.
  const upgraded = new Set<Duplex>();
  app.server.on('upgrade', (_request: IncomingMessage, socket: Duplex) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
  });
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  app.decorate('cutConnections', () => {
    const count = sockets.size;
    for (const socket of sockets) socket.destroy();
    return count;
  });
  // Counted here, not by the server: a cluster worker's connections are handed to it (cluster-connections.ts).
  app.decorate('httpConnections', () => sockets.size - upgraded.size);
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
}, { name: 'drain-on-close' });

/**
 * The first step of a shutdown behind a proxy: stop accepting connections (the proxy's next
 * connect is refused, and it sends that request to another instance, safe for any method), then
 * let the open connections run out: each ends after its next answer, and the proxy closes its
 * idle ones itself (nginx's upstream keepalive_timeout, 4 s in deploy/nginx.conf). Resolves when
 * none is left, or after `maxWaitMs`. Only then may app.close() cut idle connections: cutting one
 * the proxy is sending a request on right now would lose that request, and nginx does not resend
 * a POST.
 */
export async function stopAccepting(app: FastifyInstance, maxWaitMs: number): Promise<void> {
  app.startDraining();
  // net.Server's own close: it stops listening without reaping idle connections, which
  // http.Server's close() would do at once. (A cluster worker does not listen: its primary has.)
  if (app.server.listening) NetServer.prototype.close.call(app.server);
  const started = Date.now();
  const open = app.httpConnections();
  let left = open;
  while (left > 0 && Date.now() - started < maxWaitMs) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    left = app.httpConnections();
  }
  app.log.info({ open, left, ms: Date.now() - started }, 'stopped accepting; open connections drained');
}

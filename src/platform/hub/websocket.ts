import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import { guardUpgrades } from './upgrade-guard.js';

/** Larger frames are refused by ws itself (close 1009); chat content is 2000 characters at most. */
export const MAX_FRAME_BYTES = 64 * 1024;
export const CLOSE_GOING_AWAY = 1001;
/** Clients that do not answer the closing handshake in time are cut off. */
const SHUTDOWN_GRACE_MS = 2_000;

/**
 * WebSocket upgrades run through the whole request chain like any request, so a route's hooks
 * can refuse the handshake with a plain HTTP status before anything is accepted.
 */
export const websocketSupport = fp(async (app: FastifyInstance) => {
  await app.register(websocket, {
    options: { maxPayload: MAX_FRAME_BYTES },
    // A client's protocol error (an oversize frame, a bad close code) is the client's problem: a warning.
    errorHandler(error, socket, request) {
      request.log.warn({ err: error }, 'websocket protocol error');
      socket.terminate();
    },
    // Graceful shutdown: clients are told "going away" and reconnect to another instance.
    preClose(this: FastifyInstance, done: () => void) {
      const server = this.websocketServer;
      for (const client of server.clients) client.close(CLOSE_GOING_AWAY, 'Server shutting down');
      const cutOff = setTimeout(() => {
        for (const client of server.clients) client.terminate();
      }, SHUTDOWN_GRACE_MS);
      server.close(() => {
        clearTimeout(cutOff);
        done();
      });
    },
  });
  // Refused or unanswered upgrades are closed too, not only accepted ones.
  guardUpgrades(app);
}, { name: 'websocket-support' });

/** A socket kept by pings: `alive` is set again by its pong (or a frame it sends). */
export interface PingedSocket {
  readonly socket: WebSocket;
  alive: boolean;
}

/** At each ping interval: a socket that did not answer the previous ping is dead and dropped; the others are pinged. */
export function pingOrDrop(sets: Iterable<Iterable<PingedSocket>>): void {
  for (const sockets of sets) {
    for (const entry of sockets) {
      if (!entry.alive) {
        entry.socket.terminate();
        continue;
      }
      entry.alive = false;
      entry.socket.ping();
    }
  }
}

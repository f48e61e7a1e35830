import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { bearerToken } from '../api/request.js';
import { SESSION_COOKIE, type SessionStore } from './session.js';

export function setSessionCookie(reply: FastifyReply, config: Config, key: string, expireDate: number): void {
  reply.setCookie(SESSION_COOKIE, key, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: config.production,
    expires: new Date(expireDate),
    maxAge: Math.floor((expireDate - Date.now()) / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.setCookie(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: config.production,
    expires: new Date(0),
    maxAge: 0,
  });
}

/** Layer 2: reads `sessionid` and loads the session (and its user, in the same query). */
export const sessionLayer = fp<{ store: SessionStore }>(async (app, { store }) => {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    // An API request with a bearer token is that token's (platform/api/layer.ts), never the cookie's.
    if (request.routeOptions.config.sessionless || bearerToken(request) !== null) return;
    const key = request.cookies[SESSION_COOKIE];
    if (!key) return;
    // A route's column is read with the session, for the session's user, when the route has its argument.
    const column = request.routeOptions.config.routeColumn;
    const argument = column?.argument(request);
    // A form's POST reads the session on the way to its write: it waits for a connection with the writes.
    const writing = request.method !== 'GET' && request.method !== 'HEAD';
    request.session = await store.load(key, Date.now(), column && argument !== undefined ? { column, argument } : undefined, writing);
  });
}, { name: 'session-layer' });

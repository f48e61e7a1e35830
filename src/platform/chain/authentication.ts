import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { rotateCsrfSecret } from './csrf.js';
import { LANGUAGE_COOKIE, requestTranslator } from '../i18n/index.js';
import { isApiRequest } from '../api/request.js';
import { unauthenticated } from '../api/errors.js';
import { type LoadedSession, type SessionStore, authHashMatches, sessionAuthHash } from './session.js';
import { clearSessionCookie, setSessionCookie } from './session-layer.js';

/** The caller, as handlers see it. Never carries the password hash. */
export interface AuthUser {
  id: number;
  username: string;
  email: string;
  /** IANA time zone: the user's "today" (platform/time-zones.ts). */
  timezone: string;
  /** ISO 4217 code for money on pages ('' or absent: none), as read with the session. */
  currency?: string;
  /** The language chosen on the account page ('' or absent: the browser's), as read with the session. */
  language?: string;
  /** An administrator of the instance: may use /admin/. */
  isAdmin: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller, or null for the anonymous caller. */
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** Reachable without logging in. Every other route requires login (secure by default). */
    public?: boolean;
  }
}

export function loginUrl(next: string): string {
  return `/accounts/login/?next=${encodeURIComponent(next)}`;
}

const AUTH_HASH_CACHE_SIZE = 1000;
/** A year, as Django keeps its language cookie. */
const LANGUAGE_COOKIE_AGE = 365 * 24 * 3600;

/**
 * sessionAuthHash of recently seen password hashes: every request checks its session against the
 * user's current password, and the HMAC would otherwise be computed anew each time.
 */
class AuthHashCache {
  private readonly hashes = new Map<string, string>();

  constructor(private readonly secretKey: string) {}

  of(passwordHash: string): string {
    let hash = this.hashes.get(passwordHash);
    if (hash === undefined) {
      hash = sessionAuthHash(this.secretKey, passwordHash);
      if (this.hashes.size >= AUTH_HASH_CACHE_SIZE) this.hashes.delete(this.hashes.keys().next().value!);
      this.hashes.set(passwordHash, hash);
    }
    return hash;
  }
}

/** Starts a fresh session for the user: a new key (no fixation) and a new CSRF secret. */
export async function logIn(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { config: Config; store: SessionStore },
  user: { id: number; username: string; email: string; password: string; timezone: string; is_admin: number },
): Promise<void> {
  if (request.session) await deps.store.delete(request.session.key);
  const authHash = sessionAuthHash(deps.config.secretKey, user.password);
  const { key, expireDate } = await deps.store.create(user.id, authHash, request.headers['user-agent'] ?? '', Date.now(), request.ip);
  setSessionCookie(reply, deps.config, key, expireDate);
  rotateCsrfSecret(request);
  // Read with the session from the next request on; this one answers with a redirect.
  request.user = { id: user.id, username: user.username, email: user.email, timezone: user.timezone, isAdmin: user.is_admin === 1 };
}

/** Keeps `language` for the pages this browser is shown before its next sign-in (LANGUAGE_COOKIE). */
export function rememberLanguage(reply: FastifyReply, config: Config, language: string): void {
  reply.setCookie(LANGUAGE_COOKIE, language, { httpOnly: true, sameSite: 'lax', path: '/', secure: config.production, maxAge: LANGUAGE_COOKIE_AGE });
}

export async function logOut(request: FastifyRequest, reply: FastifyReply, deps: { config: Config; store: SessionStore }): Promise<void> {
  // The login page that follows (and the next sign-in's pages) speak the language these pages spoke.
  if (request.user) rememberLanguage(reply, deps.config, requestTranslator(request).language);
  if (request.session) await deps.store.delete(request.session.key);
  request.session = null;
  request.user = null;
  clearSessionCookie(reply, deps.config);
}

/**
 * Layer 5: sets request.user from the session (a session opened with an older password, or of
 * a deactivated user, counts as none), then sends anonymous callers of non-public routes to login.
 */
export const authenticationLayer = fp<{ config: Config; store: SessionStore }>(async (app, { config, store }) => {
  app.decorateRequest('user', null);
  const authHashes = new AuthHashCache(config.secretKey);
  const requireLogin = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (request.user || request.is404 || request.routeOptions.config.public) return done();
    // A script is told, not sent to a login page it cannot use.
    if (isApiRequest(request)) return done(unauthenticated());
    reply.redirect(loginUrl(request.url), 302);
  };
  const callerOf = (session: LoadedSession): AuthUser | null => {
    const { id, username, email, is_active, is_admin, password, timezone, currency, language } = session.user;
    return is_active === 1 && authHashMatches(session.authHash, authHashes.of(password))
      ? Object.freeze({ id, username, email, timezone, currency, language, isAdmin: is_admin === 1 })
      : null;
  };
  app.addHook('preValidation', (request, reply, done) => {
    const session = request.session;
    if (!session) return requireLogin(request, reply, done);
    const caller = callerOf(session);
    if (caller) {
      request.user = caller;
      return done();
    }
    request.session = null;
    store.delete(session.key).then(() => requireLogin(request, reply, done), done);
  });
}, { name: 'authentication-layer' });

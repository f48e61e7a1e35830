import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { Forbidden } from '../../errors.js';
import { randomString } from '../passwords/passwords.js';
import { isApiRequest } from '../api/request.js';
import { CSRF_FIELD, isUpload, leadingCsrfField } from '../uploads.js';

// Django's CSRF protection: the `csrftoken` cookie holds a 32-character secret; forms carry a
// 64-character masked token (a random mask, then the secret shifted by it) so that the page
// never contains the same bytes twice (BREACH); scripts may send the cookie value itself in
// X-CSRFToken. On top of the token, the Origin (or over HTTPS the Referer) must be our own.

export const CSRF_COOKIE = 'csrftoken';
const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const SECRET_LENGTH = 32;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const SECRET_PATTERN = new RegExp(`^[${CHARS}]{${SECRET_LENGTH}}$`);
const TOKEN_PATTERN = new RegExp(`^[${CHARS}]{${SECRET_LENGTH * 2}}$`);

declare module 'fastify' {
  interface FastifyRequest {
    csrfSecret: string | null;
    csrfSecretChanged: boolean;
    /** A fresh masked token for a form; sets the cookie on this response if there is none yet. */
    csrfToken(): string;
  }
}

/** Each character's position in CHARS, by character code (the callers check the alphabet first). */
const POSITION = new Int8Array(128).fill(-1);
for (let i = 0; i < CHARS.length; i++) POSITION[CHARS.charCodeAt(i)] = i;
const position = (text: string, at: number) => POSITION[text.charCodeAt(at)]!;

/** Where maskSecret writes a token's character codes: one string is made of them at the end. */
const maskedToken = Buffer.alloc(SECRET_LENGTH * 2);

export function maskSecret(secret: string): string {
  const mask = randomString(SECRET_LENGTH, CHARS);
  for (let i = 0; i < SECRET_LENGTH; i++) {
    maskedToken[i] = mask.charCodeAt(i);
    maskedToken[SECRET_LENGTH + i] = CHARS.charCodeAt((position(secret, i) + position(mask, i)) % CHARS.length);
  }
  return maskedToken.toString('latin1');
}

function unmaskToken(token: string): string {
  let secret = '';
  for (let i = 0; i < SECRET_LENGTH; i++) {
    secret += CHARS.at(position(token, SECRET_LENGTH + i) - position(token, i))!;
  }
  return secret;
}

function tokenSecret(token: string): string | null {
  if (TOKEN_PATTERN.test(token)) return unmaskToken(token);
  if (SECRET_PATTERN.test(token)) return token;
  return null;
}

function sameSecret(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Replaces the secret, as at login, so a token seen before cannot be replayed. */
export function rotateCsrfSecret(request: FastifyRequest): void {
  request.csrfSecret = randomString(SECRET_LENGTH, CHARS);
  request.csrfSecretChanged = true;
}

/** Whether an Origin/Referer origin is this site (as the request reached us) or trusted. */
export function isTrustedOrigin(request: FastifyRequest, config: Config, origin: string): boolean {
  const candidate = normalizeOrigin(origin);
  return candidate !== null && (candidate === normalizeOrigin(`${request.protocol}://${request.host}`) || config.csrfTrustedOrigins.includes(candidate));
}

/** `http://Host:80` and `http://host` are one origin: browsers leave the default port out. */
function normalizeOrigin(origin: string): string | null {
  try {
    const { origin: normalized } = new URL(origin);
    return normalized === 'null' ? null : normalized;
  } catch {
    return null;
  }
}

function originProblem(request: FastifyRequest, config: Config): string | null {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    return isTrustedOrigin(request, config, origin) ? null : `Origin checking failed - ${origin} does not match any trusted origins.`;
  }
  if (request.protocol !== 'https') return null;
  const referer = request.headers.referer;
  if (!referer) return 'Referer checking failed - no Referer.';
  let parsed: URL;
  try {
    parsed = new URL(referer);
  } catch {
    return 'Referer checking failed - Referer is malformed.';
  }
  if (parsed.protocol !== 'https:') return 'Referer checking failed - Referer is insecure while host is secure.';
  return isTrustedOrigin(request, config, parsed.origin) ? null : `Referer checking failed - ${parsed.origin} does not match any trusted origins.`;
}

function tokenProblem(request: FastifyRequest, fromUpload?: string): string | null {
  if (!request.csrfSecret) return 'CSRF cookie not set.';
  const body = request.body as Record<string, unknown> | undefined;
  const fromForm = fromUpload ?? (body && typeof body === 'object' ? body[CSRF_FIELD] : undefined);
  const fromHeader = request.headers['x-csrftoken'];
  const token = typeof fromForm === 'string' ? fromForm : typeof fromHeader === 'string' ? fromHeader : '';
  if (!token) return 'CSRF token missing.';
  const secret = tokenSecret(token);
  if (!secret) return 'CSRF token has incorrect format.';
  return sameSecret(secret, request.csrfSecret) ? null : 'CSRF token incorrect.';
}

function setCsrfCookie(reply: FastifyReply, config: Config, secret: string): void {
  reply.setCookie(CSRF_COOKIE, secret, {
    httpOnly: false,
    sameSite: 'lax',
    path: '/',
    secure: config.production,
    maxAge: 31_449_600,
  });
}

/** Layer 4: every unsafe method is checked before its handler runs; failure is a 403. */
export const csrfLayer = fp<{ config: Config }>(async (app, { config }) => {
  app.decorateRequest('csrfSecret', null);
  app.decorateRequest('csrfSecretChanged', false);
  app.decorateRequest('csrfToken', function (this: FastifyRequest) {
    if (!this.csrfSecret) rotateCsrfSecret(this);
    return maskSecret(this.csrfSecret!);
  });
  app.addHook('onRequest', (request, _reply, done) => {
    const cookie = request.cookies[CSRF_COOKIE];
    request.csrfSecret = cookie && SECRET_PATTERN.test(cookie) ? cookie : null;
    done();
  });
  const fail = (request: FastifyRequest, problem: string) => {
    request.log.warn({ reason: problem }, 'CSRF verification failed');
    return config.production ? new Forbidden('error.csrf') : new Forbidden('error.csrf_detail').with({ problem });
  };
  // preValidation: after the body is parsed (the token may be a form field), before any handler.
  app.addHook('preValidation', (request, _reply, done) => {
    // A bearer token is never sent by a browser on its own (platform/api/layer.ts), and an API
    // request without a session carries no credentials to abuse (it is then a 401): no forgery to stop.
    if (SAFE_METHODS.has(request.method) || request.apiToken || (!request.session && isApiRequest(request))) return done();
    const problem = originProblem(request, config);
    if (problem) return done(fail(request, problem));
    // An upload's body is not parsed ahead: its token is its first field (platform/uploads.ts).
    if (isUpload(request) && typeof request.headers['x-csrftoken'] !== 'string') {
      leadingCsrfField(request).then(
        (token) => {
          const tokenFailure = tokenProblem(request, token ?? '');
          done(tokenFailure ? fail(request, tokenFailure) : undefined);
        },
        (error: unknown) => done(error as Error),
      );
      return;
    }
    const tokenFailure = tokenProblem(request);
    done(tokenFailure ? fail(request, tokenFailure) : undefined);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.csrfSecretChanged && request.csrfSecret) setCsrfCookie(reply, config, request.csrfSecret);
    done(null, payload);
  });
}, { name: 'csrf-layer' });

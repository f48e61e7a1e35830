import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.js';

// Between the password and the code a person is not signed in: no session row, no `sessionid`.
// What the code step needs to know (who, until when, where to go next) travels in a signed,
// short-lived cookie instead of a server-side row, so an abandoned sign-in leaves nothing to sweep.

const COOKIE = 'login_2fa';
export const LOGIN_CODE_PATH = '/accounts/login/2fa/';
/** How long the code step waits after the password: long enough to find the phone. */
export const PENDING_TTL_MS = 5 * 60 * 1000;

export interface PendingSignIn {
  userId: number;
  /** The `next` kept from the login form, already checked by safeNextPath. */
  next: string;
  expiresAt: number;
  /** Ties the pending sign-in to the password it was proven with (see passwordBinding). */
  binding: string;
}

/**
 * `purpose` keeps any other value this app signs with the same key (the flash messages cookie)
 * from passing for a pending sign-in.
 */
const pendingCookie = z.object({
  purpose: z.literal('login-2fa'),
  userId: z.number().int().positive(),
  next: z.string(),
  expiresAt: z.number(),
  binding: z.string(),
});

/** A password change while the code is awaited ends the pending sign-in, as it ends sessions. */
function passwordBinding(secretKey: string, passwordHash: string): string {
  return createHmac('sha256', `groupnotes.login-2fa:${secretKey}`).update(passwordHash).digest('base64url');
}

const cookieOptions = (config: Config) => ({ path: LOGIN_CODE_PATH, httpOnly: true, sameSite: 'lax' as const, secure: config.production });

export function startPendingSignIn(reply: FastifyReply, config: Config, user: { id: number; password: string }, next: string, now = Date.now()): void {
  const value = { purpose: 'login-2fa', userId: user.id, next, expiresAt: now + PENDING_TTL_MS, binding: passwordBinding(config.secretKey, user.password) };
  reply.setCookie(COOKIE, JSON.stringify(value), { ...cookieOptions(config), signed: true, maxAge: PENDING_TTL_MS / 1000 });
}

/** The pending sign-in this browser holds, if its signature is good and it has not expired. */
export function pendingSignIn(request: FastifyRequest, now = Date.now()): PendingSignIn | null {
  const raw = request.cookies[COOKIE];
  const unsigned = raw ? request.unsignCookie(raw) : null;
  if (!unsigned?.valid || !unsigned.value) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(unsigned.value);
  } catch {
    return null;
  }
  const result = pendingCookie.safeParse(parsed);
  if (!result.success || result.data.expiresAt <= now) return null;
  const { userId, next, expiresAt, binding } = result.data;
  return { userId, next, expiresAt, binding };
}

/** Whether the pending sign-in was proven with the password the user has now. */
export function provenWithCurrentPassword(pending: PendingSignIn, config: Config, passwordHash: string): boolean {
  const expected = Buffer.from(passwordBinding(config.secretKey, passwordHash));
  const actual = Buffer.from(pending.binding);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Whether the browser sent a pending sign-in at all, valid or not. */
export function hasPendingCookie(request: FastifyRequest): boolean {
  return request.cookies[COOKIE] !== undefined;
}

export function endPendingSignIn(reply: FastifyReply, config: Config): void {
  reply.clearCookie(COOKIE, cookieOptions(config));
}

import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a reset link works (Django's PASSWORD_RESET_TIMEOUT). */
export const RESET_TIMEOUT_SECONDS = 3 * 24 * 60 * 60;
/** Keeps these signatures apart from anything else signed with SECRET_KEY. */
const SALT = 'groupnotes.accounts.password-reset';
/** A link stamped a little in the future (clocks of two instances) still works. */
const CLOCK_SKEW_SECONDS = 60;
const TOKEN = /^([0-9a-z]{1,10})-([A-Za-z0-9_-]{43})$/;

/** What a token is tied to: setting a password or logging in changes it, and every earlier link dies. */
export interface ResetSubject {
  id: number;
  password: string;
  last_login: number | null;
  email: string;
}

function signature(secretKey: string, user: ResetSubject, stamp: number): Buffer {
  const key = createHmac('sha256', secretKey).update(SALT).digest();
  return createHmac('sha256', key).update(`${user.id}\n${user.password}\n${user.last_login ?? ''}\n${stamp}\n${user.email}`).digest();
}

/**
 * `<seconds, base 36>-<HMAC-SHA256>`, like Django's PasswordResetTokenGenerator: nothing is
 * stored, and the signature covers the password hash and the last login, so the link works once
 * (setting the password changes the hash) and not after the password changed another way.
 */
export function makeResetToken(secretKey: string, user: ResetSubject, now = Date.now()): string {
  const stamp = Math.floor(now / 1000);
  return `${stamp.toString(36)}-${signature(secretKey, user, stamp).toString('base64url')}`;
}

export function checkResetToken(secretKey: string, user: ResetSubject, token: string, now = Date.now()): boolean {
  const match = TOKEN.exec(token);
  if (!match) return false;
  const stamp = parseInt(match[1]!, 36);
  const age = Math.floor(now / 1000) - stamp;
  if (age > RESET_TIMEOUT_SECONDS || age < -CLOCK_SKEW_SECONDS) return false;
  return timingSafeEqual(Buffer.from(match[2]!, 'base64url'), signature(secretKey, user, stamp));
}

/** The user id in the link, as Django spells it: base64 of its decimal digits. */
export function encodeUid(id: number): string {
  return Buffer.from(String(id)).toString('base64url');
}

export function decodeUid(uidb64: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,20}$/.test(uidb64)) return undefined;
  const digits = Buffer.from(uidb64, 'base64url').toString();
  return /^[1-9]\d{0,14}$/.test(digits) ? Number(digits) : undefined;
}

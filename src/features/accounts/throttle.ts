import type { Kysely } from 'kysely';
import { isOneOf } from '../../db/id-lists.js';
import { lockKeys } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import { identityKey } from '../../platform/identity-key.js';

/** One count kept against a limit: the attempts of one kind by one username, address or user. */
export interface Limit {
  scope: string;
  max: number;
  windowMs: number;
}

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Wrong passwords per typed username (whether or not it exists): guesses at one account. */
export const MAX_FAILURES_PER_USERNAME = 5;
/**
 * Wrong passwords per client address, whatever the username. It is there against spraying one
 * common password over many usernames, so it is far above the per-username limit: a household
 * behind one router (or every client, when the proxy's address is all the app sees) shares it,
 * and one person's typos must not lock the others out. At 100 in 15 minutes a sprayer gets
 * about ten thousand guesses a day per address, each at one account's own limit of 5.
 */
export const MAX_FAILURES_PER_ADDRESS = 100;
const REGISTER_WINDOW_MS = 60 * 60 * 1000;
/** Wrong current passwords on the password-change form, per signed-in user: like login. */
const MAX_WRONG_OLD_PASSWORDS = 5;
/** Reset mails asked for per typed address: enough for a mail that went to spam, not a flood of mail to one inbox. */
const MAX_RESETS_PER_EMAIL = 5;
/** Reset mails asked for per client address, whatever the email: against mailing many inboxes. */
const MAX_RESETS_PER_ADDRESS = 20;
const RESET_WINDOW_MS = 60 * 60 * 1000;
/** Rows older than the longest window count for nothing. */
const LONGEST_WINDOW_MS = Math.max(LOGIN_WINDOW_MS, REGISTER_WINDOW_MS, RESET_WINDOW_MS);

/** By the username's key: every spelling that logs in to one account counts against it. */
export function usernameScope(username: string): string {
  return `user:${identityKey(username).slice(0, 150)}`;
}

export function loginLimits(username: string, ip: string): Limit[] {
  return [
    { scope: usernameScope(username), max: MAX_FAILURES_PER_USERNAME, windowMs: LOGIN_WINDOW_MS },
    { scope: `ip:${ip}`, max: MAX_FAILURES_PER_ADDRESS, windowMs: LOGIN_WINDOW_MS },
  ];
}

/**
 * New accounts per client address an hour (SIGNUP_LIMIT_PER_HOUR, 20 by default: a family or a
 * class signing up together fits); 0 counts nothing. Behind a proxy without TRUST_PROXY every
 * client has the proxy's address, and the limit is one for everybody.
 */
export function registerLimits(ip: string, perHour: number): Limit[] {
  return perHour === 0 ? [] : [{ scope: `register:${ip}`, max: perHour, windowMs: REGISTER_WINDOW_MS }];
}

export function passwordChangeLimits(userId: number): Limit[] {
  return [{ scope: `password-change:${userId}`, max: MAX_WRONG_OLD_PASSWORDS, windowMs: LOGIN_WINDOW_MS }];
}

/**
 * Wrong two-factor codes count like wrong passwords (the same limits, in the same table, reserved
 * before the check): per user, since the password is already proven, and per address.
 */
export function codeLimits(userId: number, ip: string): Limit[] {
  return [
    { scope: `2fa:${userId}`, max: MAX_FAILURES_PER_USERNAME, windowMs: LOGIN_WINDOW_MS },
    { scope: `2fa-ip:${ip}`, max: MAX_FAILURES_PER_ADDRESS, windowMs: LOGIN_WINDOW_MS },
  ];
}

/** Reset mails an administrator sends to one user, whichever administrator: a mail that went to spam, not a flood of one inbox. */
export const MAX_ADMIN_RESETS_PER_USER = 3;

/** Every mail an administrator sends counts, per user it goes to (a request that sent nothing is released). */
export function adminResetLimits(userId: number): Limit[] {
  return [{ scope: `admin-reset:${userId}`, max: MAX_ADMIN_RESETS_PER_USER, windowMs: RESET_WINDOW_MS }];
}

/** Every request counts (not only failures): each may send a mail. */
export function passwordResetLimits(email: string, ip: string): Limit[] {
  return [
    { scope: `reset-email:${email.toLowerCase().slice(0, 254)}`, max: MAX_RESETS_PER_EMAIL, windowMs: RESET_WINDOW_MS },
    { scope: `reset-ip:${ip}`, max: MAX_RESETS_PER_ADDRESS, windowMs: RESET_WINDOW_MS },
  ];
}

export type Attempt =
  /** Reserved: `left` more attempts fit under the tightest limit after this one. */
  | { ok: true; ids: number[]; left: number }
  | { ok: false; retryAfterSeconds: number };

/**
 * Attempts at something slow and guessable (a password check, a new account), counted per scope
 * in a sliding window, in the database so that every instance behind the proxy sees the same
 * counts. An attempt is reserved *before* the slow work, in one transaction with the count it is
 * checked against: with the count read first and the failure written after the hash, 40 guesses
 * sent at once were all checked. A reservation that turns out not to be a failure is released.
 */
export class AttemptThrottle {
  constructor(private readonly db: Kysely<Database>) {}

  async reserve(limits: Limit[], now = Date.now()): Promise<Attempt> {
    if (limits.length === 0) return { ok: true, ids: [], left: Infinity };
    return this.db.transaction().execute(async (trx) => {
      await lockKeys(trx, limits.map((limit) => limit.scope));
      let retryAfterSeconds = 0;
      let left = Infinity;
      for (const limit of limits) {
        const row = await trx
          .selectFrom('login_failures')
          .select([(eb) => eb.fn.countAll<number>().as('attempts'), (eb) => eb.fn.min('at').as('oldest')])
          .where('scope', '=', limit.scope)
          .where('at', '>', now - limit.windowMs)
          .executeTakeFirstOrThrow();
        const attempts = Number(row.attempts);
        if (attempts >= limit.max) {
          retryAfterSeconds = Math.max(retryAfterSeconds, 1, Math.ceil((Number(row.oldest) + limit.windowMs - now) / 1000));
        }
        left = Math.min(left, limit.max - attempts - 1);
      }
      // A refused attempt is not counted: waiting out the window is enough.
      if (retryAfterSeconds > 0) return { ok: false, retryAfterSeconds };
      const rows = await trx
        .insertInto('login_failures')
        .values(limits.map((limit) => ({ scope: limit.scope, at: now })))
        .returning('id')
        .execute();
      return { ok: true, ids: rows.map((row) => row.id), left };
    });
  }

  /** Gives a reserved attempt back: it succeeded, or it was never checked. */
  async release(attempt: Attempt): Promise<void> {
    if (!attempt.ok || attempt.ids.length === 0) return;
    await this.db.deleteFrom('login_failures').where((eb) => isOneOf(this.db, eb.ref('id'), attempt.ids)).execute();
  }

  /** Runs the slow work of a reserved attempt; if it fails (hashing overloaded, say), nothing was checked. */
  async checking<T>(attempt: Attempt, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      await this.release(attempt);
      throw error;
    }
  }

  /** A success forgives the earlier failures of its scope (a username's, not an address's). */
  async forgive(scope: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('scope', '=', scope).execute();
  }

  async sweep(now = Date.now()): Promise<void> {
    await this.db.deleteFrom('login_failures').where('at', '<=', now - LONGEST_WINDOW_MS).execute();
  }
}

/** The minutes to wait (at least one), for a wait given in seconds: a message's `{minutes}`. */
export function minutesToWait(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

/** "14 minutes", for a wait given in seconds. */
export function waitInMinutes(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

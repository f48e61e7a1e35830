import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Database, User } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { FormErrors } from '../../platform/forms.js';
import { msg } from '../../platform/i18n/index.js';
import { verifyPassword } from '../../platform/passwords/passwords.js';
import { UsersRepository } from './repository.js';
import { type Attempt, type AttemptThrottle, codeLimits, minutesToWait, passwordChangeLimits } from './throttle.js';
import { TwoFactorService } from './two-factor-service.js';
import { AccountNotices } from './notices.js';
import type { Services } from '../../services.js';

// An open session is not proof of being the account's owner (a cookie can be stolen, a shared
// computer left signed in). What decides who can get into the account (its email address, where
// reset links go; two-factor sign-in; access tokens) or ends it takes the current password in the
// same form, and with two-factor sign-in on a code as well, checked for that one request.

/** The fields a guarded form adds: absent is empty, and empty is refused where it is needed. */
export const reauthFields = {
  password: z.string().max(4096, msg('form.password_too_long')).optional().default(''),
  code: z.string().trim().max(40, msg('two_factor.code_too_long')).optional().default(''),
};

export type Refusal = { ok: false; status: 400 | 429; errors: FormErrors };
export type Confirmed = { ok: true; user: User } | Refusal;

function refused(reply: FastifyReply, attempt: Attempt & { ok: false }, key: 'throttle.passwords' | 'throttle.codes'): Refusal {
  reply.header('retry-after', String(attempt.retryAfterSeconds));
  return { ok: false, status: 429, errors: { __all__: [{ key, values: { minutes: minutesToWait(attempt.retryAfterSeconds) } }] } };
}

export class Reauthentication {
  private readonly users: UsersRepository;

  constructor(
    db: Kysely<Database>,
    private readonly config: Config,
    private readonly throttle: AttemptThrottle,
    private readonly twoFactor: TwoFactorService,
  ) {
    this.users = new UsersRepository(db);
  }

  /** Whether the user's guarded forms ask for a code too (two-factor sign-in is on). */
  async asksForCode(userId: number): Promise<boolean> {
    return (await this.users.findById(userId))?.totp_enabled === 1;
  }

  /**
   * The current password, then (with 2FA on) a code, each counted like its own kind of guess: wrong
   * passwords with those of the password-change form, wrong codes with those of sign-in. A code is
   * used up by the check. Missing fields are told together, before anything is checked.
   */
  async confirm(request: FastifyRequest, reply: FastifyReply, form: { password: string; code: string }): Promise<Confirmed> {
    const user = await this.users.findById(request.user!.id);
    if (!user) throw new NotFound();
    const missing: FormErrors = {};
    if (form.password === '') missing.password = [msg('reauth.password_required')];
    if (user.totp_enabled === 1 && form.code === '') missing.code = [msg('reauth.code_required')];
    if (Object.keys(missing).length > 0) return { ok: false, status: 400, errors: missing };
    const password = await this.checkPassword(reply, user, form.password);
    if (!password.ok || user.totp_enabled !== 1) return password;
    const code = await this.checkCode(request, reply, user.id, form.code);
    return code.ok ? password : code;
  }

  private async checkPassword(reply: FastifyReply, user: User, password: string): Promise<Confirmed> {
    const limits = passwordChangeLimits(user.id);
    const attempt = await this.throttle.reserve(limits);
    if (!attempt.ok) return refused(reply, attempt, 'throttle.passwords');
    const { ok } = await this.throttle.checking(attempt, () => verifyPassword(password, user.password, this.config.pbkdf2Iterations));
    // A wrong one keeps its reservation: it counts.
    if (!ok) return { ok: false, status: 400, errors: { password: [msg('reauth.password_wrong')] } };
    await this.throttle.forgive(limits[0]!.scope);
    return { ok: true, user };
  }

  /** A code of the user's (TOTP or recovery), used up by the check; throttled like the sign-in's code step. */
  async checkCode(request: FastifyRequest, reply: FastifyReply, userId: number, code: string): Promise<Refusal | { ok: true }> {
    const limits = codeLimits(userId, request.ip);
    const attempt = await this.throttle.reserve(limits);
    if (!attempt.ok) return refused(reply, attempt, 'throttle.codes');
    const accepted = await this.throttle.checking(attempt, () => this.twoFactor.acceptCode(userId, code));
    if (!accepted) return { ok: false, status: 400, errors: { code: [msg('two_factor.code_wrong_at_login')] } };
    await this.throttle.release(attempt);
    await this.throttle.forgive(limits[0]!.scope);
    return { ok: true };
  }
}

/** The re-authentication for another feature's guarded form (deleting the account), over the app's services. */
export function reauthenticationFor({ db, config, sessions, outbox }: Pick<Services, 'db' | 'config' | 'sessions' | 'outbox'>, throttle: AttemptThrottle): Reauthentication {
  return new Reauthentication(db, config, throttle, new TwoFactorService(db, config, sessions, new AccountNotices(outbox, config.publicUrl)));
}

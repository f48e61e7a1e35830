import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { logIn } from '../../platform/chain/authentication.js';
import type { SessionStore } from '../../platform/chain/session.js';
import { checkboxField, parseForm } from '../../platform/forms.js';
import { msg, requestTranslator } from '../../platform/i18n/index.js';
import type { FormErrors } from '../../platform/forms.js';
import { viewContext } from '../../platform/views/context.js';
import { UsersRepository } from './repository.js';
import { safeNextPath } from './safe-next.js';
import { type Attempt, type AttemptThrottle, codeLimits, minutesToWait } from './throttle.js';
import { LOGIN_CODE_PATH, endPendingSignIn, hasPendingCookie, pendingSignIn, provenWithCurrentPassword, startPendingSignIn } from './two-factor-pending.js';
import type { TwoFactorService } from './two-factor-service.js';
import { type Reauthentication, reauthFields } from './reauthentication.js';
import { LoginCodePage, RecoveryCodesPage, TwoFactorOnPage, TwoFactorSetupPage } from './two-factor-views.js';

const publicRoute = { config: { public: true } };

const code = z.string({ error: msg('two_factor.code_required') }).trim().min(1, msg('two_factor.code_required')).max(40, msg('two_factor.code_too_long'));
const codeForm = z.object({ code });
/** Turning 2FA on: the code from the new secret, and the current password (see reauthentication.ts). */
const enableForm = z.object({ code, password: reauthFields.password, revoke_tokens: checkboxField() });
const disableForm = z.object({
  password: z.string({ error: msg('form.your_password') }).min(1, msg('form.your_password')).max(4096, msg('form.password_too_long')),
  code,
});

function refusal(reply: FastifyReply, attempt: Attempt & { ok: false }): FormErrors {
  reply.header('retry-after', String(attempt.retryAfterSeconds));
  return { __all__: [{ key: 'throttle.codes', values: { minutes: minutesToWait(attempt.retryAfterSeconds) } }] };
}

/**
 * After the right password of a user with 2FA on: nobody is signed in yet. The code page comes
 * next, holding who and where to (`next`, already checked) in a short-lived signed cookie.
 */
export function askForCode(reply: FastifyReply, config: Config, user: { id: number; password: string }, next: string): FastifyReply {
  startPendingSignIn(reply, config, user, next);
  return reply.redirect(LOGIN_CODE_PATH, 302);
}

export interface TwoFactorDeps {
  config: Config;
  db: Kysely<Database>;
  sessions: SessionStore;
  throttle: AttemptThrottle;
  /** Where a sign-in goes without a `next`. */
  afterLogin: string;
  twoFactor: TwoFactorService;
  reauthentication: Reauthentication;
}

export async function twoFactorRoutes(app: FastifyInstance, { config, db, sessions, throttle, afterLogin, twoFactor, reauthentication }: TwoFactorDeps): Promise<void> {
  const users = new UsersRepository(db);

  /**
   * `fresh`: the page opened anew (a new secret to scan); a form shown again keeps the session's.
   * `revokeTokens`: the "also revoke my API tokens" box, ticked on a page opened anew, as sent on one shown again.
   */
  const showSettings = async (request: FastifyRequest, reply: FastifyReply, status = 200, errors: FormErrors = {}, fresh = false, revokeTokens = true) => {
    const ctx = viewContext(request);
    const enrolment = await twoFactor.enrolment(request.user!, request.session!.key, fresh);
    const page = enrolment.enabled
      ? TwoFactorOnPage({ ctx, recoveryCodesLeft: enrolment.recoveryCodesLeft, errors })
      : TwoFactorSetupPage({ ctx, secret: enrolment.secret, uri: enrolment.uri, qrCode: enrolment.qrCode, errors, revokeTokens });
    return reply.render(page, status);
  };

  app.get('/accounts/2fa/', (request, reply) => showSettings(request, reply, 200, {}, true));

  app.post('/accounts/2fa/', async (request, reply) => {
    const form = parseForm(enableForm, request.body);
    if (!form.ok) return showSettings(request, reply, 400, form.errors, false, checkboxField().parse(form.values.revoke_tokens));
    const { revoke_tokens: revokeTokens } = form.data;
    // 2FA is off here, so the password alone confirms the owner.
    const confirmed = await reauthentication.confirm(request, reply, { password: form.data.password, code: '' });
    if (!confirmed.ok) return showSettings(request, reply, confirmed.status, confirmed.errors, false, revokeTokens);
    const enabled = await twoFactor.enable(request.user!.id, form.data.code, request.session!.key, requestTranslator(request), { revokeTokens });
    if (!enabled.ok) return showSettings(request, reply, 400, enabled.errors, false, revokeTokens);
    // Rendered, not redirected to: the codes exist in the clear only in this answer.
    return reply.render(RecoveryCodesPage({ ctx: viewContext(request), codes: enabled.value, site: config.publicUrl }));
  });

  app.post('/accounts/2fa/disable/', async (request, reply) => {
    const userId = request.user!.id;
    const form = parseForm(disableForm, request.body);
    if (!form.ok) return showSettings(request, reply, 400, form.errors);
    const limits = codeLimits(userId, request.ip);
    const attempt = await throttle.reserve(limits);
    if (!attempt.ok) return showSettings(request, reply, 429, refusal(reply, attempt));
    const disabled = await throttle.checking(attempt, () => twoFactor.disable(userId, form.data.password, form.data.code, requestTranslator(request)));
    if (!disabled.ok) {
      // Only a wrong password or code counts against the limit.
      if (disabled.errors.__all__) await throttle.release(attempt);
      return showSettings(request, reply, 400, disabled.errors);
    }
    await throttle.forgive(limits[0]!.scope);
    request.flash('two_factor.turned_off');
    return reply.redirect('/accounts/2fa/', 302);
  });

  /** The user a pending sign-in is for, while it is valid: unexpired, and the password unchanged since. */
  const pendingUser = async (request: FastifyRequest) => {
    const pending = pendingSignIn(request);
    if (!pending) return null;
    const user = await users.findById(pending.userId);
    if (!user || user.is_active !== 1 || user.totp_enabled !== 1 || !provenWithCurrentPassword(pending, config, user.password)) return null;
    return { pending, user };
  };

  const startAgain = (request: FastifyRequest, reply: FastifyReply) => {
    if (hasPendingCookie(request)) {
      endPendingSignIn(reply, config);
      request.flash('two_factor.timed_out', 'info');
    }
    return reply.redirect('/accounts/login/', 302);
  };

  app.get(LOGIN_CODE_PATH, publicRoute, async (request, reply) => {
    if (!(await pendingUser(request))) return startAgain(request, reply);
    return reply.render(LoginCodePage({ ctx: viewContext(request) }));
  });

  app.post(LOGIN_CODE_PATH, publicRoute, async (request, reply) => {
    const found = await pendingUser(request);
    if (!found) return startAgain(request, reply);
    const { pending, user } = found;
    const showCodePage = (status: number, errors: FormErrors) => reply.render(LoginCodePage({ ctx: viewContext(request), errors }), status);
    const form = parseForm(codeForm, request.body);
    if (!form.ok) return showCodePage(400, form.errors);
    const limits = codeLimits(user.id, request.ip);
    const attempt = await throttle.reserve(limits);
    if (!attempt.ok) return showCodePage(429, refusal(reply, attempt));
    const accepted = await throttle.checking(attempt, () => twoFactor.acceptCode(user.id, form.data.code));
    if (!accepted) return showCodePage(400, { code: [msg('two_factor.code_wrong_at_login')] });
    await throttle.release(attempt);
    await throttle.forgive(limits[0]!.scope);
    endPendingSignIn(reply, config);
    // Signed in from here on: now, not at the password, is the last login.
    await users.recordLogin(user.id);
    await logIn(request, reply, { config, store: sessions }, user);
    return reply.redirect(safeNextPath(pending.next, afterLogin), 302);
  });
}

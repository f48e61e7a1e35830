import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { NotFound } from '../../errors.js';
import { logIn, logOut, rememberLanguage } from '../../platform/chain/authentication.js';
import { sessionKeyId } from '../../platform/chain/session.js';
import { checkboxField, type FormErrors, type FormValues, parseForm } from '../../platform/forms.js';
import { type Message, type MessageKey, msg, requestTranslator } from '../../platform/i18n/index.js';
import type { Services } from '../../services.js';
import { viewContext } from '../../platform/views/context.js';
import { accountForm, loginForm, passwordChangeForm, registerForm } from './forms.js';
import { meApi } from './me-api.js';
import { mailChoiceRoutes } from './mail-choice-routes.js';
import { safeNextPath } from './safe-next.js';
import { AccountsService } from './service.js';
import { AccountNotices } from './notices.js';
import { Reauthentication } from './reauthentication.js';
import { TwoFactorService } from './two-factor-service.js';
import { askForCode, twoFactorRoutes } from './two-factor-routes.js';
import { tokensRoutes } from './tokens-routes.js';
import { TokensRepository } from './tokens-repository.js';
import { type Attempt, AttemptThrottle, LOGIN_WINDOW_MS, loginLimits, minutesToWait, passwordChangeLimits, registerLimits, usernameScope } from './throttle.js';
import { AccountPage } from './account-views.js';
import { LoginPage, PasswordChangeDonePage, PasswordChangePage, RegisterPage, SessionsPage } from './views.js';

const AFTER_LOGIN = '/notes/';
const publicRoute = { config: { public: true } };
/** Tries left at which the login form starts saying how many remain. */
const FEW_LEFT = 3;

/** Said after a wrong password once few tries are left; the count is per typed username, so it tells nothing about who exists. */
function triesLeft(attempt: Attempt): Message[] {
  if (!attempt.ok || attempt.left > FEW_LEFT) return [];
  const minutes = minutesToWait(LOGIN_WINDOW_MS / 1000);
  if (attempt.left <= 0) return [{ key: 'login.paused', values: { minutes } }];
  return [{ key: 'login.tries_left', values: { left: attempt.left, minutes } }];
}

/** A refusal for too many attempts: its message (a key taking `{minutes}`) and the Retry-After header. */
function refusedFor(reply: FastifyReply, attempt: Attempt & { ok: false }, key: MessageKey): Message {
  reply.header('retry-after', String(attempt.retryAfterSeconds));
  return { key, values: { minutes: minutesToWait(attempt.retryAfterSeconds) } };
}

export const accountPages: FastifyPluginAsync<Services> = async (app, services) => {
  const { config, sessions } = services;
  const notices = new AccountNotices(services.outbox, config.publicUrl);
  const accounts = new AccountsService(services.db, config, sessions, notices);
  const throttle = new AttemptThrottle(services.db);
  const twoFactor = new TwoFactorService(services.db, config, sessions, notices);
  const reauthentication = new Reauthentication(services.db, config, throttle, twoFactor);

  const showLogin = (request: FastifyRequest, reply: FastifyReply, status: number, extra: Partial<Parameters<typeof LoginPage>[0]> = {}) =>
    reply.render(
      LoginPage({ ctx: viewContext(request), next: safeNextPath((request.query as { next?: string }).next, ''), allowSignup: config.allowSignup, ...extra }),
      status,
    );

  app.get('/accounts/login/', publicRoute, async (request, reply) => {
    const next = (request.query as { next?: string }).next;
    if (request.user) return reply.redirect(safeNextPath(next, AFTER_LOGIN), 302);
    const kept = safeNextPath(next, '');
    return reply.renderCached(kept, async (ctx) => LoginPage({ ctx, next: kept, allowSignup: config.allowSignup }));
  });

  app.post('/accounts/login/', publicRoute, async (request, reply) => {
    const form = parseForm(loginForm, request.body);
    if (!form.ok) return showLogin(request, reply, 400, { values: form.values, errors: form.errors, next: safeNextPath(form.values.next, '') });
    const { username, password, next } = form.data;
    const shown = { values: { username }, next: safeNextPath(next, '') };
    const attempt = await throttle.reserve(loginLimits(username, request.ip));
    // The form stays on the page with the wait, so the person can try again from there.
    if (!attempt.ok) return showLogin(request, reply, 429, { ...shown, errors: { __all__: [refusedFor(reply, attempt, 'throttle.logins')] } });
    const user = await throttle.checking(attempt, () => accounts.authenticate(username, password));
    if (!user) return showLogin(request, reply, 400, { ...shown, errors: { __all__: [msg('login.wrong_credentials'), ...triesLeft(attempt)] } });
    await throttle.release(attempt);
    await throttle.forgive(usernameScope(username));
    if (user.totp_enabled === 1) {
      // The code page (and the pages before the code) speak the user's language, not only the browser's.
      if (user.language) rememberLanguage(reply, config, user.language);
      return askForCode(reply, config, user, safeNextPath(next, AFTER_LOGIN));
    }
    // The sign-in is complete only here (or after the code): only then is it the last login.
    await accounts.users.recordLogin(user.id);
    await logIn(request, reply, { config, store: sessions }, user);
    return reply.redirect(safeNextPath(next, AFTER_LOGIN), 302);
  });

  app.post('/accounts/logout/', publicRoute, async (request, reply) => {
    await logOut(request, reply, { config, store: sessions });
    request.flash('login.logged_out', 'info');
    return reply.redirect('/accounts/login/', 302);
  });

  app.get('/register/', publicRoute, async (request, reply) => {
    if (!config.allowSignup) throw new NotFound();
    if (request.user) return reply.redirect(AFTER_LOGIN, 302);
    return reply.render(RegisterPage({ ctx: viewContext(request) }));
  });

  app.post('/register/', publicRoute, async (request, reply) => {
    if (!config.allowSignup) throw new NotFound();
    const form = parseForm(registerForm, request.body);
    const ctx = viewContext(request);
    if (!form.ok) return reply.render(RegisterPage({ ctx, values: form.values, errors: form.errors }), 400);
    const values = { username: form.data.username, email: form.data.email };
    // Every new account costs a full hash: reserved before it, kept once the account exists.
    const attempt = await throttle.reserve(registerLimits(request.ip, config.signupLimitPerHour));
    if (!attempt.ok) return reply.render(RegisterPage({ ctx, values, errors: { __all__: [refusedFor(reply, attempt, 'throttle.accounts')] } }), 429);
    const created = await throttle.checking(attempt, () => accounts.createUser({ username: form.data.username, email: form.data.email, password: form.data.password1, timezone: form.data.timezone }));
    if (!created.ok) {
      await throttle.release(attempt);
      return reply.render(RegisterPage({ ctx, values, errors: created.errors }), 400);
    }
    await accounts.users.recordLogin(created.value.id);
    await logIn(request, reply, { config, store: sessions }, created.value);
    request.flash({ key: 'register.welcome', values: { username: created.value.username } });
    return reply.redirect(AFTER_LOGIN, 302);
  });

  // The page warns an account without an email address that reset needs one.
  app.get('/accounts/password_change/', async (request, reply) => reply.renderCached(request.user!.email ? '' : 'no-email', async (ctx) => PasswordChangePage({ ctx })));

  app.post('/accounts/password_change/', async (request, reply) => {
    const form = parseForm(passwordChangeForm, request.body);
    const ctx = viewContext(request);
    // Shown again, the box keeps what was sent: absent is unticked.
    if (!form.ok) return reply.render(PasswordChangePage({ ctx, values: form.values, errors: form.errors, revokeTokens: checkboxField().parse(form.values.revoke_tokens) }), 400);
    const limits = passwordChangeLimits(request.user!.id);
    const attempt = await throttle.reserve(limits);
    if (!attempt.ok) return reply.render(PasswordChangePage({ ctx, errors: { __all__: [refusedFor(reply, attempt, 'throttle.passwords')] }, revokeTokens: form.data.revoke_tokens }), 429);
    const changed = await throttle.checking(attempt, () => accounts.changePassword(request.user!.id, form.data, request.session!.key, requestTranslator(request)));
    if (!changed.ok) {
      // Only a wrong current password counts against the limit, like a wrong password at login.
      if (!changed.errors.old_password) await throttle.release(attempt);
      return reply.render(PasswordChangePage({ ctx, errors: changed.errors, revokeTokens: form.data.revoke_tokens }), 400);
    }
    // The right current password forgives the earlier wrong ones, this reservation included.
    await throttle.forgive(limits[0]!.scope);
    request.flash('password_change.changed');
    return reply.redirect('/accounts/password_change/done/', 302);
  });

  app.get('/accounts/password_change/done/', async (request, reply) => reply.render(PasswordChangeDonePage({ ctx: viewContext(request) })));

  app.get('/accounts/', async (request, reply) => {
    const { id, email, timezone, currency = '', language = '' } = request.user!;
    const withCode = await reauthentication.asksForCode(id);
    return reply.render(AccountPage({ ctx: viewContext(request), values: { email, timezone, currency, language }, withCode }));
  });

  // The time zone, currency and language are saved with the session alone; a new email address
  // (where reset links go) takes the password, and the code with 2FA on, and the old address is told.
  app.post('/accounts/', async (request, reply) => {
    const user = request.user!;
    const form = parseForm(accountForm, request.body);
    const showAgain = async (status: number, values: FormValues, errors: FormErrors) =>
      reply.render(AccountPage({ ctx: viewContext(request), values, errors, withCode: await reauthentication.asksForCode(user.id) }), status);
    if (!form.ok) return showAgain(400, form.values, form.errors);
    const { password, code, ...account } = form.data;
    if (account.email === user.email) {
      await accounts.users.setAccount(user.id, account);
    } else {
      const confirmed = await reauthentication.confirm(request, reply, { password, code });
      if (!confirmed.ok) return showAgain(confirmed.status, account, confirmed.errors);
      await accounts.changeEmail(confirmed.user, account, requestTranslator(request));
    }
    request.flash('account.saved');
    return reply.redirect('/accounts/', 302);
  });

  app.get('/accounts/sessions/', async (request, reply) => {
    const rows = await sessions.listForUser(request.user!.id);
    return reply.render(SessionsPage({ ctx: viewContext(request), sessions: rows, currentKey: request.session!.key }));
  });

  app.post('/accounts/sessions/', async (request, reply) => {
    const ended = await sessions.deleteForUser(request.user!.id, request.session!.key);
    request.flash({ key: 'sessions.ended_others', values: { count: ended.length } });
    return reply.redirect('/accounts/sessions/', 302);
  });

  // Every API token of the caller, for a user who suspects one leaked (a session alone may do it: it only takes away).
  app.post('/accounts/sessions/revoke-tokens/', async (request, reply) => {
    const revoked = await new TokensRepository(services.db).revokeAll(request.user!.id);
    request.flash({ key: 'sessions.tokens_revoked', values: { count: revoked } });
    return reply.redirect('/accounts/sessions/', 302);
  });

  // One session ended, named by its key id (never its key). Another user's is the same 404 as none.
  app.post<{ Params: { keyId: string } }>('/accounts/sessions/:keyId/delete/', async (request, reply) => {
    const { keyId } = request.params;
    if (!/^[0-9a-f]{24}$/.test(keyId)) throw new NotFound();
    if (keyId === sessionKeyId(request.session!.key)) {
      await logOut(request, reply, { config, store: sessions });
      return reply.redirect('/accounts/login/', 302);
    }
    if (!(await sessions.deleteForUserByKeyId(request.user!.id, keyId))) throw new NotFound();
    request.flash('sessions.ended_one');
    return reply.redirect('/accounts/sessions/', 302);
  });

  mailChoiceRoutes(app, accounts.users);
  meApi(app);
  await twoFactorRoutes(app, { config, db: services.db, sessions, throttle, afterLogin: AFTER_LOGIN, twoFactor, reauthentication });
  await tokensRoutes(app, { db: services.db, reauthentication, notices });
};

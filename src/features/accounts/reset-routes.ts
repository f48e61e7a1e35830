import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { parseForm } from '../../platform/forms.js';
import type { Services } from '../../services.js';
import { viewContext } from '../../platform/views/context.js';
import { passwordResetForm, setPasswordForm } from './forms.js';
import { PasswordResetService } from './reset-service.js';
import { InvalidResetLinkPage, PasswordResetCompletePage, PasswordResetDonePage, PasswordResetPage, SetPasswordPage } from './reset-views.js';
import { requestTranslator, translatorFor } from '../../platform/i18n/index.js';
import { AttemptThrottle, minutesToWait, passwordResetLimits, usernameScope } from './throttle.js';

const publicRoute = { config: { public: true } };
/** The link's token is a password for the account until it is used: never written to the log. */
const linkRoute = { config: { public: true, secretParams: ['token'] } };

interface LinkParams {
  uidb64: string;
  token: string;
}

/** The page with a live token in its address is kept by no cache. */
const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

/** Password reset: a mail with a one-use, three-day link to set a new password. */
export const passwordResetPages: FastifyPluginAsync<Services> = async (app, services) => {
  const resets = new PasswordResetService(services.db, services.config, services.sessions, services.outbox);
  const throttle = new AttemptThrottle(services.db);

  app.get('/accounts/password_reset/', publicRoute, async (request, reply) => reply.render(PasswordResetPage({ ctx: viewContext(request) })));

  app.post('/accounts/password_reset/', publicRoute, async (request, reply) => {
    const form = parseForm(passwordResetForm, request.body);
    const ctx = viewContext(request);
    if (!form.ok) return reply.render(PasswordResetPage({ ctx, values: form.values, errors: form.errors }), 400);
    const { email } = form.data;
    // Counted per typed address, whether or not an account has it: the refusal tells nothing either.
    const attempt = await throttle.reserve(passwordResetLimits(email, request.ip));
    if (!attempt.ok) {
      reply.header('retry-after', String(attempt.retryAfterSeconds));
      const message = { key: 'throttle.resets' as const, values: { minutes: minutesToWait(attempt.retryAfterSeconds) } };
      return reply.render(PasswordResetPage({ ctx, values: { email }, errors: { __all__: [message] } }), 429);
    }
    // The mail speaks the language of the page that asked for it.
    await throttle.checking(attempt, () => resets.requestReset(email, requestTranslator(request)));
    return reply.redirect('/accounts/password_reset/done/', 302);
  });

  app.get('/accounts/password_reset/done/', publicRoute, async (request, reply) => reply.render(PasswordResetDonePage({ ctx: viewContext(request) })));

  app.get<{ Params: LinkParams }>('/accounts/reset/:uidb64/:token/', linkRoute, async (request, reply) => {
    const user = await resets.userForLink(request.params.uidb64, request.params.token);
    const ctx = viewContext(request);
    noStore(reply);
    if (!user) return reply.render(InvalidResetLinkPage({ ctx }), 400);
    return reply.render(SetPasswordPage({ ctx, action: request.url }));
  });

  app.post<{ Params: LinkParams }>('/accounts/reset/:uidb64/:token/', linkRoute, async (request, reply) => {
    const user = await resets.userForLink(request.params.uidb64, request.params.token);
    const ctx = viewContext(request);
    noStore(reply);
    if (!user) return reply.render(InvalidResetLinkPage({ ctx }), 400);
    const form = parseForm(setPasswordForm, request.body);
    if (!form.ok) return reply.render(SetPasswordPage({ ctx, action: request.url, values: form.values, errors: form.errors }), 400);
    // The owner's notice speaks their language, else this page's.
    const set = await resets.setPassword(user, form.data.new_password1, translatorFor(request.headers['accept-language'], user.language));
    if (!set) return reply.render(InvalidResetLinkPage({ ctx }), 400);
    if (!set.ok) return reply.render(SetPasswordPage({ ctx, action: request.url, errors: set.errors }), 400);
    // Whoever was locked out by wrong guesses at this account may now log in with the new password.
    await throttle.forgive(usernameScope(user.username));
    return reply.redirect('/accounts/reset/done/', 302);
  });

  app.get('/accounts/reset/done/', publicRoute, async (request, reply) => reply.render(PasswordResetCompletePage({ ctx: viewContext(request) })));
};

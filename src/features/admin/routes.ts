import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { MethodNotAllowed, NotFound } from '../../errors.js';
import { pathId } from '../../platform/ids.js';
import type { Services } from '../../services.js';
import { viewContext } from '../../platform/views/context.js';
import type { Message } from '../../platform/i18n/index.js';
import { AccountNotices, adminResetLimits, AttemptThrottle, MAX_ADMIN_RESETS_PER_USER, PasswordResetService, UsersRepository } from '../accounts/index.js';
import { type Actor, AdminService } from './service.js';
import { AdminUsersPage, AuditLogPage } from './views.js';

type PkParams = { Params: { pk: string } };

/** The actions, all POST. */
const ACTIONS = ['deactivate', 'activate', 'disable-2fa', 'send-reset'] as const;

/** The administrator making the request; anyone else gets the same 404 as a page that does not exist. */
function adminActor(request: FastifyRequest): Actor {
  const user = request.user;
  if (!user?.isAdmin) throw new NotFound();
  return { id: user.id, name: user.username, address: request.ip };
}

export const adminPages: FastifyPluginAsync<Services> = async (app, { db, sessions, config, outbox }) => {
  const service = new AdminService(db, sessions);
  const resets = new PasswordResetService(db, config, sessions, outbox);
  const notices = new AccountNotices(outbox, config.publicUrl);
  const users = new UsersRepository(db);
  const throttle = new AttemptThrottle(db);

  /** The users page again with what was refused, at `status`. */
  const refused = async (request: FastifyRequest, reply: FastifyReply, status: number, message: Message) =>
    reply.render(AdminUsersPage({ ctx: viewContext(request), users: await service.admin.users(), errors: { __all__: [message] } }), status);

  app.get('/admin/users/', async (request, reply) => {
    adminActor(request);
    return reply.render(AdminUsersPage({ ctx: viewContext(request), users: await service.admin.users() }));
  });

  app.get('/admin/audit/', async (request, reply) => {
    adminActor(request);
    return reply.render(AuditLogPage({ ctx: viewContext(request), entries: await service.admin.auditLog() }));
  });

  // A GET of an action is a 405 for an administrator only: to everyone else the same 404 as a
  // page that does not exist (the common layer's 405 would tell them that the path exists).
  for (const action of ACTIONS) {
    app.get<PkParams>(`/admin/users/:pk/${action}/`, async (request) => {
      adminActor(request);
      throw new MethodNotAllowed(['POST']);
    });
  }

  for (const active of [false, true]) {
    app.post<PkParams>(`/admin/users/:pk/${active ? 'activate' : 'deactivate'}/`, async (request, reply) => {
      const actor = adminActor(request);
      const outcome = await service.setActive(actor, pathId(request), active);
      if (!outcome.ok && outcome.reason === 'missing') throw new NotFound();
      if (!outcome.ok && outcome.reason === 'last-admin') return refused(request, reply, 400, { key: 'admin.last_admin', values: { username: outcome.user.username } });
      if (outcome.ok) request.flash({ key: active ? 'admin.reactivated' : 'admin.deactivated_flash', values: { username: outcome.user.username } });
      else request.flash('admin.cannot_deactivate_self', 'error');
      return reply.redirect('/admin/users/', 302);
    });
  }

  app.post<PkParams>('/admin/users/:pk/disable-2fa/', async (request, reply) => {
    const outcome = await service.disableTwoFactor(adminActor(request), pathId(request));
    if (!outcome.ok) throw new NotFound();
    // The user is told: a change to how one gets into their account is theirs to know of.
    const user = outcome.user.totp_enabled === 1 ? await users.findById(outcome.user.id) : undefined;
    if (user) await notices.send({ kind: 'admin_two_factor_off', to: user });
    request.flash({ key: 'admin.two_factor_disabled', values: { username: outcome.user.username } });
    return reply.redirect('/admin/users/', 302);
  });

  app.post<PkParams>('/admin/users/:pk/send-reset/', async (request, reply) => {
    const actor = adminActor(request);
    const target = await service.admin.findUser(pathId(request));
    if (!target) throw new NotFound();
    // Counted per user mailed, whichever administrator asks; a request that sends nothing is given back.
    const attempt = await throttle.reserve(adminResetLimits(target.id));
    if (!attempt.ok) {
      reply.header('retry-after', String(attempt.retryAfterSeconds));
      const minutes = Math.max(1, Math.ceil(attempt.retryAfterSeconds / 60));
      return refused(request, reply, 429, { key: 'admin.reset_throttled', values: { username: target.username, max: MAX_ADMIN_RESETS_PER_USER, minutes } });
    }
    const outcome = await throttle.checking(attempt, () => service.sendPasswordReset(actor, target.id, resets));
    if (!outcome.ok) await throttle.release(attempt);
    if (!outcome.ok && outcome.reason === 'missing') throw new NotFound();
    if (outcome.ok) request.flash({ key: 'admin.reset_sent', values: { email: outcome.email, username: outcome.username } });
    else request.flash({ key: outcome.reason === 'no-email' ? 'admin.reset_no_email' : 'admin.reset_inactive', values: { username: outcome.username } }, 'error');
    return reply.redirect('/admin/users/', 302);
  });
};

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { NotFound } from '../../errors.js';
import { pathId } from '../../platform/ids.js';
import type { Services } from '../../platform/services.js';
import { viewContext } from '../../platform/views/render.js';
import { type Actor, AdminService } from './service.js';
import { AdminUsersPage, AuditLogPage } from './views.js';

type PkParams = { Params: { pk: string } };

/** The administrator making the request; anyone else gets the same 404 as a page that does not exist. */
function adminActor(request: FastifyRequest): Actor {
  const user = request.user;
  if (!user?.isAdmin) throw new NotFound();
  return { id: user.id, name: user.username, address: request.ip };
}

export const adminFeature: FastifyPluginAsync<Services> = async (app, { db, sessions }) => {
  const service = new AdminService(db, sessions);

  app.get('/admin/users/', async (request, reply) => {
    adminActor(request);
    return reply.render(AdminUsersPage({ ctx: viewContext(request), users: await service.admin.users() }));
  });

  app.get('/admin/audit/', async (request, reply) => {
    adminActor(request);
    return reply.render(AuditLogPage({ ctx: viewContext(request), entries: await service.admin.auditLog() }));
  });

  for (const active of [false, true]) {
    app.post<PkParams>(`/admin/users/:pk/${active ? 'activate' : 'deactivate'}/`, async (request, reply) => {
      const actor = adminActor(request);
      const outcome = await service.setActive(actor, pathId(request), active);
      if (!outcome.ok && outcome.reason === 'missing') throw new NotFound();
      request.flash(
        outcome.ok ? `${outcome.user.username} was ${active ? 'reactivated' : 'deactivated and signed out everywhere'}.` : 'You cannot deactivate yourself.',
        outcome.ok ? 'success' : 'error',
      );
      return reply.redirect('/admin/users/', 302);
    });
  }

  app.post<PkParams>('/admin/users/:pk/disable-2fa/', async (request, reply) => {
    const outcome = await service.disableTwoFactor(adminActor(request), pathId(request));
    if (!outcome.ok) throw new NotFound();
    request.flash(`Two-factor sign-in is off for ${outcome.user.username}: they sign in with their password alone.`);
    return reply.redirect('/admin/users/', 302);
  });
};

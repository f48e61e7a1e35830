import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';

export const homeRoutes: FastifyPluginAsync<Services> = async (app) => {
  app.get('/', { config: { public: true } }, async (request, reply) =>
    reply.redirect(request.user ? '/notes/' : '/accounts/login/', 302),
  );
};

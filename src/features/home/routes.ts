import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';

export const homeFeature: FastifyPluginAsync<Services> = async (app) => {
  app.get('/', { config: { public: true } }, async (request, reply) =>
    reply.redirect(request.user ? '/notes/' : '/accounts/login/', 302),
  );
};

import fp from 'fastify-plugin';

/** Layer 7: no page of ours may be framed (clickjacking). */
export const frameOptionsLayer = fp(async (app) => {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('x-frame-options', 'DENY');
  });
}, { name: 'frame-options-layer' });

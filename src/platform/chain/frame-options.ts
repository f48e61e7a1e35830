import fp from 'fastify-plugin';

/** Layer 7: no page of ours may be framed (clickjacking). */
export const frameOptionsLayer = fp(async (app) => {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('x-frame-options', 'DENY');
    done();
  });
}, { name: 'frame-options-layer' });

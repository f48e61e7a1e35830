import fp from 'fastify-plugin';

/** One structured line per request, with who made it. */
export const requestLog = fp(async (app) => {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        user: request.user?.id,
      },
      'request',
    );
  });
}, { name: 'request-log' });

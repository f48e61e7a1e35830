import fp from 'fastify-plugin';

/**
 * Graceful shutdown, the part Fastify leaves out: a request that was already in flight when
 * close() began is answered with `Connection: close`, so its connection ends with the answer.
 * Without it the connection would become idle after close() had reaped the idle ones, and keep
 * the process alive until the client gave up on it (nginx: 60 s, more than systemd's stop timeout).
 */
export const drainOnClose = fp(async (app) => {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
}, { name: 'drain-on-close' });

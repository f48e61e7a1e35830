import fp from 'fastify-plugin';
import { pathOf } from '../url.js';

/**
 * One structured line per request, with who made it. The path only: a query string holds what
 * people search for and where they were going (`?q=`, `?next=`), which a log must not keep. A
 * secret in the path (a reset link's token) is redacted on its way out (secret-paths.ts).
 */
export const requestLog = fp(async (app) => {
  // The line is only built when it will be written.
  const enabled = ['trace', 'debug', 'info'].includes(app.log.level);
  app.addHook('onResponse', (request, reply, done) => {
    if (enabled) {
      const ms = Math.round(reply.elapsedTime * 10) / 10;
      request.log.info({ method: request.method, path: pathOf(request.url), status: reply.statusCode, ms, user: request.user?.id }, 'request');
    }
    done();
  });
}, { name: 'request-log' });

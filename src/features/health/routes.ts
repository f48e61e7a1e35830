import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.js';
import { type HealthCheck, databaseCheck, runChecks } from './service.js';

/**
 * What /healthz checks: the database always; Redis when REDIS_URL is set, through the owner of
 * the Redis connections (the real-time hub), so the check uses the connection chat relies on.
 */
function healthChecks(services: Services): HealthCheck[] {
  const checks = [databaseCheck(services.db)];
  if (services.config.redisUrl) checks.push({ name: 'redis', run: () => services.hub.check() });
  return checks;
}

/**
 * GET /healthz for the proxy and monitors: no login, no session lookup, no cookies, plain HTTP
 * allowed in production. 200 {"status":"ok"} when every check passes, else 503.
 */
export const healthRoutes: FastifyPluginAsync<Services> = async (app, services) => {
  const checks = healthChecks(services);
  app.get('/healthz', { config: { public: true, sessionless: true, allowHttp: true } }, async (request, reply) => {
    const report = await runChecks(checks, (name, error) => request.log.error({ err: error, check: name }, 'health check failed'));
    return reply
      .code(report.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report);
  });
};

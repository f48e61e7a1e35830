import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { BadRequest } from '../errors.js';
import { isAllowedHost } from './hosts.js';

/**
 * Layer 1: the HTTPS redirect (production) and the security headers. X-Frame-Options is left
 * to the frame-options layer, as in SPEC.md's chain.
 */
export const securityLayer = fp<{ config: Config }>(async (app, { config }) => {
  app.addHook('onRequest', async (request, reply) => {
    if (!config.production || request.protocol === 'https' || request.routeOptions.config.allowHttp) return;
    // Never redirect to a host we do not serve: that would be an open redirect.
    if (!isAllowedHost(request.host, config.allowedHosts)) throw new BadRequest('Invalid Host header.');
    return reply.redirect(`https://${request.host}${request.url}`, 301);
  });
  await app.register(helmet, {
    global: true,
    frameguard: false,
    referrerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    hsts: config.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
  });
}, { name: 'security-layer' });

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answer plain HTTP even in production (the proxy's health check). */
    allowHttp?: boolean;
  }
}

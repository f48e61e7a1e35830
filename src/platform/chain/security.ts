import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../../config.js';
import { BadRequest } from '../../errors.js';
import { isAllowedHost } from './hosts.js';

/** Helmet's options for this service: a strict CSP (no inline script or style), no framing. */
function helmetOptions(config: Config): HelmetOptions {
  return {
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
        // Images from this site only: a remote image in a note would tell its owner who read it.
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
  };
}

/**
 * The headers helmet sets, worked out once: with fixed options (no per-request nonce) they are
 * the same on every response, and building helmet's middleware per request (as @fastify/helmet
 * does) cost more than the rest of a small page.
 */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Layer 1: the HTTPS redirect (production) and the security headers. X-Frame-Options is left
 * to the frame-options layer, the chain's last.
 */
export const securityLayer = fp<{ config: Config }>(async (app, { config }) => {
  const headers = securityHeaders(helmetOptions(config));
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    if (!config.production || request.protocol === 'https' || request.routeOptions.config.allowHttp) return done();
    // Never redirect to a host we do not serve: that would be an open redirect.
    if (!isAllowedHost(request.host, config.allowedHosts)) return done(new BadRequest('error.invalid_host_short'));
    reply.redirect(`https://${request.host}${request.url}`, 301);
  });
}, { name: 'security-layer' });

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answer plain HTTP even in production (the proxy's health check). */
    allowHttp?: boolean;
  }
}

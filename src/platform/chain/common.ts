import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import Router, { type HTTPVersion } from 'find-my-way';
import type { Config } from '../../config.js';
import { BadRequest, MethodNotAllowed, NotFound } from '../../errors.js';
import { isAllowedHost } from './hosts.js';
import { splitUrl } from '../url.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Methods that some route answers at this path (for 405 and trailing-slash redirects). */
    methodsFor(path: string): string[];
  }
}

/**
 * Layer 3: the Host allow-list (400 otherwise), and Django's APPEND_SLASH: a GET without the
 * trailing slash is redirected (301) when the slashed path is a route, else it is a 404.
 */
export const commonLayer = fp<{ config: Config }>(async (app, { config }) => {
  // A mirror of our own page routes, only to ask "would this path match?" without running it.
  const routes = Router<HTTPVersion.V1>();
  app.addHook('onRoute', (route) => {
    if (!route.url.endsWith('/') && !route.url.endsWith('/*')) return;
    for (const method of [route.method].flat()) {
      try {
        routes.on(method as 'GET', route.url, () => undefined);
      } catch {
        // The same method and path registered twice (HEAD beside GET): the first is enough.
      }
    }
  });
  app.decorate('methodsFor', (path: string) => {
    const found: string[] = [];
    for (const method of ['GET', 'POST']) if (routes.find(method as 'GET', path)) found.push(method);
    return found;
  });

  app.addHook('onRequest', (request: FastifyRequest, reply, done) => {
    if (!isAllowedHost(request.headers.host, config.allowedHosts)) {
      return done(new BadRequest('error.invalid_host').with({ host: JSON.stringify(request.headers.host ?? '') }));
    }
    if (!request.is404 || (request.method !== 'GET' && request.method !== 'HEAD')) return done();
    const [path, query] = splitUrl(request.url);
    // A path starting with // or /\ would redirect off-site ("//evil.example/"): never redirect it.
    if (!path.endsWith('/') && !/^\/[/\\]/.test(path) && routes.find('GET', `${path}/`)) {
      reply.redirect(`${path}/${query}`, 301);
      return;
    }
    done();
  });

  app.setNotFoundHandler(async (request) => {
    const [path] = splitUrl(request.url);
    const allowed = app.methodsFor(path);
    if (allowed.length > 0 && !allowed.includes(request.method)) throw new MethodNotAllowed(allowed);
    throw new NotFound();
  });
}, { name: 'common-layer' });

import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { ApiError, unauthenticated } from './errors.js';
import { API_PREFIX, bearerToken, isApiRequest } from './request.js';
import { TokenBucket } from '../rate-limit.js';
import { type TokenScope, TokenStore } from './tokens.js';
import type { ApiOperation } from './routes.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Token buckets kept per instance; the least recently used goes first past this. */
const MAX_BUCKETS = 10_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API operation registered (apiRoute), for the OpenAPI document. */
    apiOperations: ApiOperation[];
    /** API routes registered without apiRoute, so missing from the OpenAPI document (a test keeps it to the document's own). */
    undocumentedApiRoutes: string[];
  }
  interface FastifyContextConfig {
    /** Registered by apiRoute: described in the OpenAPI document. */
    documented?: boolean;
  }
  interface FastifyRequest {
    /** The personal access token this API request came with (it is then exempt from CSRF); null otherwise. */
    apiToken: { id: number; scope: TokenScope; columns: Readonly<Record<string, unknown>> } | null;
  }
}


/** Per-token (and per-user, for the session cookie) request limits, bounded in number (the least recently used bucket is dropped). */
class TokenLimits {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
  ) {}

  /** Null when the request may go on, else the seconds to wait. */
  take(key: string): number | null {
    if (this.perSecond === 0) return null;
    let bucket = this.buckets.get(key);
    if (bucket) this.buckets.delete(key);
    else {
      bucket = new TokenBucket(this.burst, this.perSecond);
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
    }
    this.buckets.set(key, bucket);
    return bucket.take() ? null : bucket.secondsUntilNext();
  }
}

/**
 * Bearer-token authentication for /api/: a valid token sets request.user (the CSRF layer then
 * lets its writes through: a token is not sent by a browser on its own); any token that is not
 * valid is a 401, never a fall-back to the cookie. A read-only token may only read (403), and
 * each token has its own request budget (429 with Retry-After), as has each user on the cookie. Registered right after the
 * session layer, which leaves the cookie alone when a bearer token is present.
 */
export const apiTokenLayer = fp<{ config: Config; tokens: TokenStore }>(async (app, { config, tokens }) => {
  app.decorateRequest('apiToken', null);
  app.decorate('apiOperations', []);
  app.decorate('undocumentedApiRoutes', []);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(API_PREFIX) && !route.config?.documented && route.method !== 'HEAD') app.undocumentedApiRoutes.push(`${String(route.method)} ${route.url}`);
  });
  const limits = new TokenLimits(config.apiRateBurst, config.apiRatePerSecond);
  const throwIfOverLimit = (key: string, message: 'api.rate_limited_account' | 'api.rate_limited_token') => {
    const wait = limits.take(key);
    if (wait !== null) throw new ApiError(429, 'rate_limited', message, undefined, { 'retry-after': String(wait) }).with({ seconds: wait });
  };
  // A script on the session cookie has the same budget, per user: the API is no way around it.
  // A callback hook, not an async one: it runs for every page too, and most of them are not the API's.
  app.addHook('preHandler', (request, _reply, done) => {
    if (!request.user || request.apiToken || !isApiRequest(request)) return done();
    try {
      throwIfOverLimit(`user:${request.user.id}`, 'api.rate_limited_account');
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (token === null) return;
    const caller = await tokens.authenticate(token);
    if (!caller) throw unauthenticated('api.token_invalid');
    throwIfOverLimit(`token:${caller.tokenId}`, 'api.rate_limited_token');
    if (caller.scope === 'read' && !SAFE_METHODS.has(request.method)) throw new ApiError(403, 'forbidden', 'api.read_only_token');
    const { user } = caller;
    request.apiToken = Object.freeze({ id: caller.tokenId, scope: caller.scope, columns: caller.columns });
    request.user = Object.freeze({ id: user.id, username: user.username, email: user.email, timezone: user.timezone, language: user.language, isAdmin: user.is_admin === 1 });
    await tokens.touch(caller);
  });
}, { name: 'api-token-layer', dependencies: ['session-layer'] });

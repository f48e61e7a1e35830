import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { ApiError, unauthenticated } from './errors.js';
import { API_PREFIX, bearerToken, isApiRequest } from './request.js';
import { KeyedBuckets, type TokenBucket, takeFromEach } from '../rate-limit.js';
import { type TokenScope, TokenStore } from './tokens.js';
import type { ApiOperation } from './routes.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Token buckets of each kind kept per instance; the least recently used goes first past this. */
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


type CredentialRefusal = 'api.rate_limited_account' | 'api.rate_limited_token';

/**
 * The API's request budgets on this instance: each credential's (a token, or a user's session
 * cookie) and each user's, which all of the user's credentials share, so that more tokens are not
 * more requests. Each kind keeps at most MAX_BUCKETS buckets (the least recently used goes).
 */
class ApiBudgets {
  private readonly credentials: KeyedBuckets | null;
  private readonly users: KeyedBuckets | null;

  constructor(config: Config) {
    this.credentials = config.apiRatePerSecond > 0 ? new KeyedBuckets(config.apiRateBurst, config.apiRatePerSecond, MAX_BUCKETS) : null;
    this.users = config.apiUserRatePerSecond > 0 ? new KeyedBuckets(config.apiUserRateBurst, config.apiUserRatePerSecond, MAX_BUCKETS) : null;
  }

  /** One request of `userId` with `credential`; the 429 when either budget is spent (a refused request spends neither). */
  take(credential: string, userId: number, refusal: CredentialRefusal): void {
    const budgets: [TokenBucket, CredentialRefusal][] = [];
    if (this.credentials) budgets.push([this.credentials.bucket(credential), refusal]);
    if (this.users) budgets.push([this.users.bucket(String(userId)), 'api.rate_limited_account']);
    const refused = takeFromEach(budgets.map(([bucket]) => bucket));
    if (refused) {
      const { seconds } = refused;
      throw new ApiError(429, 'rate_limited', budgets[refused.refusedBy]![1], undefined, { 'retry-after': String(seconds) }).with({ seconds });
    }
  }
}

/**
 * Bearer-token authentication for /api/: a valid token sets request.user (the CSRF layer then
 * lets its writes through: a token is not sent by a browser on its own); any token that is not
 * valid is a 401, never a fall-back to the cookie. A read-only token may only read (403), and
 * each token has its own request budget (429 with Retry-After), as has each user's cookie, inside
 * the budget the user's credentials share. Registered right after the session layer, which leaves
 * the cookie alone when a bearer token is present.
 */
export const apiTokenLayer = fp<{ config: Config; tokens: TokenStore }>(async (app, { config, tokens }) => {
  app.decorateRequest('apiToken', null);
  app.decorate('apiOperations', []);
  app.decorate('undocumentedApiRoutes', []);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(API_PREFIX) && !route.config?.documented && route.method !== 'HEAD') app.undocumentedApiRoutes.push(`${String(route.method)} ${route.url}`);
  });
  const budgets = new ApiBudgets(config);
  // A script on the session cookie has a token's budget, within the user's: the API is no way around it.
  // A callback hook, not an async one: it runs for every page too, and most of them are not the API's.
  app.addHook('preHandler', (request, _reply, done) => {
    if (!request.user || request.apiToken || !isApiRequest(request)) return done();
    try {
      budgets.take(`cookie:${request.user.id}`, request.user.id, 'api.rate_limited_account');
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
    budgets.take(`token:${caller.tokenId}`, caller.user.id, 'api.rate_limited_token');
    if (caller.scope === 'read' && !SAFE_METHODS.has(request.method)) throw new ApiError(403, 'forbidden', 'api.read_only_token');
    const { user } = caller;
    request.apiToken = Object.freeze({ id: caller.tokenId, scope: caller.scope, columns: caller.columns });
    request.user = Object.freeze({ id: user.id, username: user.username, email: user.email, timezone: user.timezone, language: user.language, isAdmin: user.is_admin === 1 });
    await tokens.touch(caller);
  });
}, { name: 'api-token-layer', dependencies: ['session-layer'] });

import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Response as InjectResponse } from 'light-my-request';
import type { Database, User } from '../src/db/schema.js';
import { type TokenScope, newToken } from '../src/platform/api/tokens.js';
import type { TestBrowser } from './helpers.js';

/** A personal access token of `user`, stored as the tokens page stores one; the token itself is returned. */
export async function createToken(db: Kysely<Database>, user: Pick<User, 'id'>, scope: TokenScope = 'write', name = 'test'): Promise<string> {
  const { token, hash, hint } = newToken();
  await db.insertInto('access_tokens').values({ user_id: user.id, name, scope, token_hash: hash, hint, created_at: Date.now() }).execute();
  return token;
}

export interface ApiRequest {
  body?: unknown;
  headers?: Record<string, string>;
}

/** Parsed JSON, loose enough to read fields from in assertions (`data.error.code`); lists through `results()`. */
export interface Json {
  [key: string]: Json;
}

export type ApiResponse = InjectResponse & { data: Json };

/** The items of a list answer (`{"results": [...], "next": ...}`). */
export function results(response: ApiResponse): Json[] {
  return response.data.results as unknown as Json[];
}

/**
 * A script calling the JSON API: with a bearer token, or with a logged-in TestBrowser's cookies
 * (then writes carry X-CSRFToken unless `csrf: false`, as a page's own script would).
 */
export class ApiClient {
  constructor(
    private readonly app: FastifyInstance,
    private readonly credentials: { token: string } | { browser: TestBrowser; csrf?: boolean } | null,
  ) {}

  async request(method: string, url: string, { body, headers = {} }: ApiRequest = {}): Promise<ApiResponse> {
    const sent: Record<string, string> = { host: 'localhost', accept: 'application/json', ...headers };
    if (this.credentials && 'token' in this.credentials) sent.authorization ??= `Bearer ${this.credentials.token}`;
    else if (this.credentials) {
      const { browser, csrf } = this.credentials;
      sent.cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      if (method !== 'GET' && csrf !== false) {
        sent['x-csrftoken'] = await browser.ensureCsrfCookie();
        sent.cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
        sent.origin ??= 'http://localhost';
      }
    }
    if (body !== undefined) sent['content-type'] = 'application/json';
    const response = (await this.app.inject({ method: method as 'GET', url, headers: sent, payload: body === undefined ? undefined : JSON.stringify(body) })) as ApiResponse;
    const type = String(response.headers['content-type'] ?? '');
    response.data = type.startsWith('application/json') && response.body ? JSON.parse(response.body) : undefined;
    return response;
  }

  get(url: string, options?: ApiRequest) {
    return this.request('GET', url, options);
  }
  post(url: string, body?: unknown, options?: ApiRequest) {
    return this.request('POST', url, { ...options, body });
  }
  patch(url: string, body?: unknown, options?: ApiRequest) {
    return this.request('PATCH', url, { ...options, body });
  }
  put(url: string, body?: unknown, options?: ApiRequest) {
    return this.request('PUT', url, { ...options, body });
  }
  delete(url: string, options?: ApiRequest) {
    return this.request('DELETE', url, options);
  }
}

import type { FastifyRequest } from 'fastify';

// Which requests are the JSON API's, and how they name a token: read by the chain's layers.

/** Every JSON API path starts so (`/api/v1/...` and the old `/api/notes/` alias). */
export const API_PREFIX = '/api/';

export function isApiRequest(request: FastifyRequest): boolean {
  return request.url.startsWith(API_PREFIX);
}

/** A bearer token in the Authorization header, for an API path: the session cookie is then not read. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined || !isApiRequest(request)) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

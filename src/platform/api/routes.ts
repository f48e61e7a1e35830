import { type FormErrors, issueMessage } from '../forms.js';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthUser } from '../chain/authentication.js';
import { MAX_ID } from '../ids.js';
import { ApiError } from './errors.js';

// One declaration per API operation: the schemas that validate its input are the ones the
// OpenAPI document is generated from (platform/api/openapi.ts), so the two cannot drift apart.

export type ApiMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface ApiInput<P, Q, B> {
  user: AuthUser;
  params: P;
  query: Q;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface ApiOperation<P = unknown, Q = unknown, B = unknown, R = unknown> {
  method: ApiMethod;
  /** Fastify syntax, `/api/v1/notes/:pk/`. */
  path: string;
  /** Older paths that answer the same (the Django application's `/api/notes/`), documented as deprecated. */
  aliases?: string[];
  /** The OpenAPI tag: the resource (`notes`, `todo`...). */
  tag: string;
  summary: string;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** The answer when all goes well: 200 (201 for a create, with `location`), or 204 with no body. */
  status?: 200 | 201 | 204;
  response?: z.ZodType<R>;
  /** Where a created object lives (201 answers carry it as Location). */
  location?: (result: R) => string;
  /** Error statuses this operation may answer besides 400 (input), 401 and 429, which all may. */
  errors?: number[];
  handler: (input: ApiInput<P, Q, B>) => Promise<R>;
}

/** A strong ETag of a JSON value: a change to any field of the object changes it. */
export function etagOf(value: unknown): string {
  return etagOfText(JSON.stringify(value));
}

/** etagOf for a value already written as JSON: an answer's body is serialized once, for both. */
function etagOfText(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}

function etagList(header: string): string[] {
  return header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
}

/**
 * `If-Match`: the update goes ahead only if the object is still the one the client read (412
 * otherwise). Call it with the object as GET shows it, read in the transaction that writes it,
 * after the row is locked (db/locks.ts), so no other write can come between the check and this one.
 */
export function checkIfMatch(request: FastifyRequest, current: unknown): void {
  const header = request.headers['if-match'];
  if (header === undefined) return;
  const tags = etagList(header);
  if (tags.includes('*') || tags.includes(etagOf(current))) return;
  throw new ApiError(412, 'precondition_failed', 'api.precondition_failed');
}

/** Validation messages per field, as forms show them (`__all__` for the whole body). */
function fieldErrors(error: z.ZodError): FormErrors {
  const fields: FormErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '__all__';
    (fields[field] ??= []).push(issueMessage(issue));
  }
  return fields;
}

function parsed<T>(schema: z.ZodType<T> | undefined, value: unknown, message: 'api.invalid_query' | 'api.invalid_body'): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new ApiError(400, 'invalid', message, fieldErrors(result.error));
}

/**
 * Whether the query of `url` is UTF-8 percent-encoding throughout. Fastify reads a stray `%zz`
 * as those characters; the API says instead that the client's encoding is wrong, as for a path.
 */
function wellEncodedQuery(url: string): boolean {
  const start = url.indexOf('?');
  if (start === -1 || url.indexOf('%', start) === -1) return true;
  try {
    decodeURIComponent(url.slice(start + 1));
    return true;
  } catch {
    return false;
  }
}

/** Registers an operation (and its aliases) and records it for the OpenAPI document. */
export function apiRoute<P, Q, B, R>(app: FastifyInstance, operation: ApiOperation<P, Q, B, R>): void {
  app.apiOperations.push(operation as ApiOperation);
  const status = operation.status ?? 200;
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!wellEncodedQuery(request.url)) throw new ApiError(400, 'invalid', 'error.bad_url');
    // A missing id in the path is the same 404 as a hidden one, not a 400.
    const params = operation.params ? operation.params.safeParse(request.params) : null;
    if (params && !params.success) throw new ApiError(404, 'not_found', 'api.not_found');
    const input: ApiInput<P, Q, B> = {
      user: request.user!,
      params: params?.data as P,
      query: parsed(operation.query, request.query, 'api.invalid_query'),
      body: parsed(operation.body, request.body, 'api.invalid_body'),
      request,
      reply,
    };
    const result = await operation.handler(input);
    if (status === 204) return reply.code(204).send();
    const body = JSON.stringify(result);
    const etag = etagOfText(body);
    reply.header('etag', etag).header('cache-control', 'private, no-cache');
    if (operation.method === 'GET') {
      const match = request.headers['if-none-match'];
      if (match !== undefined && (match.trim() === '*' || etagList(match).includes(etag))) return reply.code(304).send();
    }
    if (status === 201 && operation.location) reply.header('location', operation.location(result));
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  };
  for (const url of [operation.path, ...(operation.aliases ?? [])]) app.route({ method: operation.method, url, handler, config: { documented: true } });
}

/**
 * A path id as the pages read one (platform/ids.ts): digits naming a row of an `integer` column.
 * Anything else (`1e3`, `0x10`, ` 7`, a number past the column's range, which PostgreSQL would
 * refuse with an error, a 500) names nothing: the same 404 as a missing object.
 */
export const pathIdSchema = z
  .string()
  .regex(/^[0-9]{1,10}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(MAX_ID));

export const pkParams = z.object({ pk: pathIdSchema });

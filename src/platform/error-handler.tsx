import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { isDatabaseBusy } from '../db/errors.js';
import { HttpError, STATUS_TITLES, ServiceUnavailable } from '../errors.js';
import { isApiRequest } from './api/request.js';
import { ApiError } from './api/errors.js';
import { ErrorPage } from './views/error-page.js';
import { viewContext } from './views/context.js';
import { type MessageKey, requestTranslator, type Translator, translate } from './i18n/index.js';

const GENERIC_MESSAGES: Record<number, MessageKey> = {
  400: 'error.bad_request',
  413: 'error.too_large',
  415: 'error.unsupported_media_type',
  500: 'error.server',
};

/** A script that asked for JSON and not for a page (the API answers JSON whatever it asks). */
export function wantsJson(request: { headers: { accept?: string | undefined } }): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

/** The API's error codes by status, for errors raised by code shared with the pages (a NotFound). */
const API_CODES: Record<number, string> = {
  400: 'invalid',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  412: 'precondition_failed',
  413: 'too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

/** The API's error body: `{"error": {"code", "message", "fields"?}}`. */
export function apiErrorBody(error: Error, status: number, message: string, t: Translator) {
  const code = error instanceof ApiError ? error.code : API_CODES[status] ?? (status >= 500 ? 'server_error' : 'error');
  const fields = error instanceof ApiError ? error.fields : undefined;
  if (!fields) return { error: { code, message } };
  const translated = Object.fromEntries(Object.entries(fields).map(([field, messages]) => [field, messages.map((m) => translate(t, m))]));
  return { error: { code, message, fields: translated } };
}

/** Seconds a client is asked to wait before it tries again when the database was too busy. */
export const DATABASE_BUSY_RETRY_SECONDS = 5;

/** One place renders every error: a styled page (or JSON for scripts), never internals in production. */
export function installErrorHandler(app: FastifyInstance, config: Config): void {
  app.setErrorHandler((thrown: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
    // A database too busy to answer in time (isDatabaseBusy) is a refusal for load like the
    // others: nothing changed (the statement failed, its transaction rolled back), try again.
    const busy = isDatabaseBusy(thrown);
    const error = busy ? new ServiceUnavailable('error.database_busy', DATABASE_BUSY_RETRY_SECONDS) : thrown;
    const known = error instanceof HttpError;
    const fastifyStatus = !known && error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : undefined;
    const status = known ? error.statusCode : fastifyStatus ?? 500;
    // A refusal under load is an answer, not a fault, but the operator should see it at warn.
    if (busy) request.log.warn({ code: (thrown as { code?: string }).code, reason: thrown.message }, 'database busy');
    else if (error instanceof ServiceUnavailable) request.log.warn({ reason: error.message }, 'refused for load');
    else if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (known) reply.headers(error.headers);
    const t = requestTranslator(request);
    const message = translate(t, known ? { key: error.message as MessageKey, values: error.values } : GENERIC_MESSAGES[status] ?? STATUS_TITLES[status] ?? 'error.title');
    if (isApiRequest(request)) return reply.code(status).send(apiErrorBody(error, status, message, t));
    if (wantsJson(request)) return reply.code(status).send({ error: message });
    const detail = status >= 500 && !config.production ? error.stack : undefined;
    return reply.render(<ErrorPage ctx={viewContext(request)} status={status} message={message} detail={detail} />, status);
  });
}

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api/errors.js';
import { API_PREFIX } from './api/request.js';
import { apiErrorBody, wantsJson } from './error-handler.js';
import { type LanguageSource, type MessageKey, requestTranslator, type Translator } from './i18n/index.js';
import { pathOf } from './url.js';
import type { ViewContext } from './views/context.js';
import { ErrorPage } from './views/error-page.js';
import { renderPage } from './views/render.js';

// Requests refused before routing, so before the hooks run and out of reach of the error
// handler: Fastify's, for a path it cannot decode (frameworkErrors), and Node's, for a request it
// cannot parse (clientErrorHandler), such as `?q=борщ` sent without percent-encoding, which
// Node's parser refuses unless made lenient for everything (insecureHTTPParser). They are answered
// in the error handler's shapes: the API's JSON under /api/, an error page elsewhere. No session
// has been read, so the page is the signed-out one, and the chain's headers are not set: the page
// shows nothing of the request.

type Refusal = () => ApiError;

const badRequest: Refusal = () => new ApiError(400, 'invalid', 'error.bad_request');
const badUrl: Refusal = () => new ApiError(400, 'invalid', 'error.bad_url');

/** Fastify's refusals, by code. */
const FRAMEWORK_REFUSALS: Record<string, Refusal> = {
  FST_ERR_BAD_URL: badUrl,
  // A path part longer than every id and token names nothing: the 404 of a malformed id.
  FST_ERR_MAX_PARAM_LENGTH: () => new ApiError(404, 'not_found', 'error.not_found'),
};

/** Node's refusals, by code; every other request it cannot parse is a 400. */
const CLIENT_REFUSALS: Record<string, Refusal> = {
  HPE_INVALID_URL: badUrl,
  HPE_HEADER_OVERFLOW: () => new ApiError(431, 'headers_too_large', 'error.headers_too_large'),
  ERR_HTTP_REQUEST_TIMEOUT: () => new ApiError(408, 'timeout', 'error.request_timeout'),
};

interface RequestHead extends LanguageSource {
  url: string;
  headers: { accept?: string | undefined; 'accept-language'?: string | undefined };
}

/** A page's context for a request no hook has read: nobody signed in, no navigation, no messages. */
function signedOutContext(t: Translator, url: string): ViewContext {
  return { user: null, navigation: [], path: pathOf(url), csrfToken: () => '', takeMessages: () => [], language: t.language, t: t.t };
}

function answer(request: RequestHead, error: ApiError): { type: string; body: string } {
  const t = requestTranslator(request);
  const message = t.t(error.message as MessageKey);
  const json = 'application/json; charset=utf-8';
  if (request.url.startsWith(API_PREFIX)) return { type: json, body: JSON.stringify(apiErrorBody(error, error.statusCode, message, t)) };
  if (wantsJson(request)) return { type: json, body: JSON.stringify({ error: message }) };
  const page = <ErrorPage ctx={signedOutContext(t, request.url)} status={error.statusCode} message={message} />;
  return { type: 'text/html; charset=utf-8', body: renderPage(page, t) };
}

/** Fastify's `frameworkErrors`: its request and reply are bare (no decorator, no hook). */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const refusal = FRAMEWORK_REFUSALS[error.code];
  if (!refusal) request.log.error({ err: error }, 'request failed');
  const refused = (refusal ?? (() => new ApiError(500, 'server_error', 'error.server')))();
  const { type, body } = answer({ url: request.url, headers: request.headers }, refused);
  reply.code(refused.statusCode).type(type).send(body);
}

/** The target and the languages of a request Node could not parse, from the bytes it had read. */
function requestHead(rawPacket: unknown): RequestHead {
  const text = Buffer.isBuffer(rawPacket) ? rawPacket.toString('latin1') : '';
  const header = (name: string) => new RegExp(`\\r\\n${name}:[ \\t]*([^\\r\\n]*)`, 'i').exec(text)?.[1];
  // The target's bytes stay as they came: only its start (/api/) and its path are read.
  return { url: /^[A-Z]+ (\/\S*)/.exec(text)?.[1] ?? '/', headers: { accept: header('accept'), 'accept-language': header('accept-language') } };
}

/** Node's `clientError`, as Fastify's default handles it (bound to the app), in our shapes. */
export function answerClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.trace({ err: error }, 'client error');
  if (socket.writable) {
    const refused = (CLIENT_REFUSALS[error.code] ?? badRequest)();
    const { type, body } = answer(requestHead(error.rawPacket), refused);
    const status = refused.statusCode;
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

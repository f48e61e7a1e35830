import type { MessageValues } from './platform/i18n/index.js';
/** An error that is a normal HTTP answer: the error handler renders its status page. */
/**
 * An answer other than success. Its message is a catalogue key (with `values`) shown in the
 * caller's language, or text shown as it is.
 */
export class HttpError extends Error {
  values?: MessageValues;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Absent or hidden: the two must be indistinguishable, so ids cannot be probed. */
export class NotFound extends HttpError {
  constructor(message = 'The page you asked for does not exist, or you cannot see it.') {
    super(404, message);
  }
}

export class BadRequest extends HttpError {
  constructor(message = 'The request could not be understood.') {
    super(400, message);
  }
}

export class Forbidden extends HttpError {
  constructor(message = 'You may not do that.') {
    super(403, message);
  }
}

export class MethodNotAllowed extends HttpError {
  constructor(allowed: string[]) {
    super(405, `This address does not accept that method. Allowed: ${allowed.join(', ')}.`, {
      allow: allowed.join(', '),
    });
  }
}

/** Refused for load, not for anything in the request: the same request may succeed later. */
export class ServiceUnavailable extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(503, message, { 'retry-after': String(retryAfterSeconds) });
  }
}

export const STATUS_TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  412: 'Precondition failed',
  413: 'Request too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
  500: 'Server error',
  503: 'Service unavailable',
};

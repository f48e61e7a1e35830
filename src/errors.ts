import type { MessageKey, MessageValues } from './platform/i18n/index.js';

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

  /** Sets the values of the message's key: `throw new HttpError(400, 'x.y').with({ n })`. */
  with(values: MessageValues): this {
    this.values = values;
    return this;
  }
}

/** Absent or hidden: the two must be indistinguishable, so ids cannot be probed. */
export class NotFound extends HttpError {
  constructor(message: string = 'error.not_found') {
    super(404, message);
  }
}

export class BadRequest extends HttpError {
  constructor(message: string = 'error.bad_request') {
    super(400, message);
  }
}

export class Forbidden extends HttpError {
  constructor(message: string = 'error.forbidden') {
    super(403, message);
  }
}

export class MethodNotAllowed extends HttpError {
  constructor(allowed: string[]) {
    super(405, 'error.method_not_allowed', { allow: allowed.join(', ') });
    this.values = { allowed: allowed.join(', ') };
  }
}

/** Refused for load, not for anything in the request: the same request may succeed later. */
export class ServiceUnavailable extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(503, message, { 'retry-after': String(retryAfterSeconds) });
  }
}

/** Each status's title, a catalogue key (the OpenAPI document says them in English). */
export const STATUS_TITLES: Record<number, MessageKey> = {
  400: 'error.title_400',
  401: 'error.title_401',
  403: 'error.title_403',
  404: 'error.title_404',
  405: 'error.title_405',
  412: 'error.title_412',
  413: 'error.title_413',
  415: 'error.title_415',
  429: 'error.title_429',
  500: 'error.title_500',
  503: 'error.title_503',
};

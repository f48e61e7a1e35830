import { HttpError } from '../../errors.js';
import type { FormErrors } from '../forms.js';
import type { MessageKey } from '../i18n/index.js';

/**
 * An API error: JSON `{"error": {"code", "message", "fields"?}}` (platform/error-handler.tsx).
 * The code is English and stable; the message a catalogue key, said in the caller's language.
 */
export class ApiError extends HttpError {
  constructor(
    statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: FormErrors,
    headers: Record<string, string> = {},
  ) {
    super(statusCode, message, headers);
  }
}

export const unauthenticated = (message: MessageKey = 'api.unauthenticated') =>
  new ApiError(401, 'unauthenticated', message, undefined, { 'www-authenticate': 'Bearer realm="groupnotes"' });

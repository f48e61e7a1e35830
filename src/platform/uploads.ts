import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { BadRequest, HttpError } from '../errors.js';

// File uploads (multipart/form-data). Only a feature that registers @fastify/multipart in its
// own scope accepts them; elsewhere such a body is a 415. The CSRF layer reads the token from
// the form's first field, so the upload itself is read only once the token is known good.

export const CSRF_FIELD = 'csrfmiddlewaretoken';

const remainingParts = new WeakMap<FastifyRequest, AsyncIterableIterator<Multipart>>();

/** Whether this is a multipart body in a scope that accepts them. */
export function isUpload(request: FastifyRequest): boolean {
  // The decorator exists only where @fastify/multipart is registered.
  const decorated = request as Partial<Pick<FastifyRequest, 'isMultipart'>>;
  return typeof decorated.isMultipart === 'function' && decorated.isMultipart();
}

/**
 * Reads an upload's first part: when it is the CSRF field (our forms put it first, and browsers
 * send fields in document order) its value is returned, and the rest is kept for uploadParts.
 */
export async function leadingCsrfField(request: FastifyRequest): Promise<string | undefined> {
  const parts = guarded(request.parts());
  remainingParts.set(request, parts);
  const first = await parts.next();
  if (first.done || first.value.type !== 'field' || first.value.fieldname !== CSRF_FIELD) {
    // Whatever it was, the handler never runs: the CSRF check fails. A file's stream is drained so the request can end.
    if (!first.done && first.value.type === 'file') first.value.file.resume();
    return undefined;
  }
  return typeof first.value.value === 'string' ? first.value.value : undefined;
}

/** The parts of an upload the CSRF layer has not read; a malformed body throws uploadFailure's error. */
export function uploadParts(request: FastifyRequest): AsyncIterableIterator<Multipart> {
  return remainingParts.get(request) ?? guarded(request.parts());
}

/**
 * What a broken or oversized multipart body means for the client (busboy's own errors would
 * otherwise be 500s): 413 over one of the limits, else 400.
 */
export function uploadFailure(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const status = error && typeof error === 'object' && 'statusCode' in error ? error.statusCode : undefined;
  if (status === 413) return new HttpError(413, 'error.upload_too_large');
  return new BadRequest('error.upload_malformed');
}

async function* guarded(parts: AsyncIterableIterator<Multipart>): AsyncGenerator<Multipart> {
  try {
    yield* parts;
  } catch (error) {
    throw uploadFailure(error);
  }
}

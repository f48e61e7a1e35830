import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from './errors.js';

// Keyset paging for the API's lists: `?cursor=&limit=`, answered `{"results": [...], "next": "<url or null>"}`.

const CURSOR_LIMIT = 500;

/** A page of a list: `{"results": [...], "next": "<url or null>"}`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ results: z.array(item), next: z.string().nullable() });
}

/** The paging part of a list's query string: an opaque cursor from `next`, and a page size. */
export const pagingQuery = {
  cursor: z.string().max(CURSOR_LIMIT).optional().describe('The `next` cursor of the previous page.'),
  limit: z.coerce.number().int().min(1).max(100).default(50).describe('Items per page, 1 to 100.'),
};

/** An opaque cursor for keyset paging: the sort key of the last item of a page. */
export function encodeCursor(key: readonly (string | number | null)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The sort key a cursor holds, checked against its shape; a cursor that is not ours is a 400. */
export function decodeCursor<T>(cursor: string, shape: z.ZodType<T>): T {
  try {
    const key = shape.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    if (key.success) return key.data;
  } catch {
    // Not JSON: answered below like any other cursor that is not ours.
  }
  throw new ApiError(400, 'invalid', 'api.invalid_cursor', { cursor: ['api.not_a_cursor'] });
}

/** The URL of the next page: this request's, with the cursor replaced. */
export function nextUrl(request: FastifyRequest, cursor: string | null): string | null {
  if (cursor === null) return null;
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('cursor', cursor);
  return url.toString();
}

/** Where a page starts: after the row whose sort key `cursor` holds (checked against `shape`), or at the first (null). */
export function cursorAfter<T>(cursor: string | undefined, shape: z.ZodType<T>): T | null {
  return cursor === undefined ? null : decodeCursor(cursor, shape);
}

/**
 * A page from `limit + 1` rows: the first `limit`, and the cursor of the next page (the sort key
 * `keyOf` gives of the page's last row) when there is a row beyond them.
 */
export function pageRows<Row>(rows: Row[], limit: number, keyOf: (row: Row) => readonly (string | number | null)[]): { rows: Row[]; cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, cursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null };
}

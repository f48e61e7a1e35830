import { z } from 'zod';
import { NotFound } from '../errors.js';

// The one parser of object ids, for every path, query string and form field of every feature.

/**
 * Ids are `integer` columns (migrations' withId): 32-bit on PostgreSQL, where a larger number in
 * a query is an error (a 500), not an empty result. Such a number is nobody's id.
 */
export const MAX_ID = 2_147_483_647;
const DIGITS = /^[0-9]{1,10}$/;

/** A positive id within the column's range, or null for anything else. */
export function parseId(raw: unknown): number | null {
  if (typeof raw !== 'string' || !DIGITS.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_ID ? id : null;
}

/** An id from a path or query string: anything else is the same 404 as an absent object. */
export function idOr404(raw: unknown): number {
  const id = parseId(raw);
  if (id === null) throw new NotFound();
  return id;
}

/** The `<pk>` of a route's path. */
export function pathId(request: { params: unknown }): number {
  const { params } = request;
  return idOr404(params && typeof params === 'object' && 'pk' in params ? params.pk : undefined);
}

/** A choice that is not one of the form's: a catalogue key. */
export const INVALID_CHOICE = 'form.invalid_choice';

/** A required id field (a hidden input or a `<select>` without an empty choice). */
export const idField = (message = INVALID_CHOICE) =>
  z.unknown().transform((raw, ctx) => {
    const id = parseId(typeof raw === 'string' ? raw.trim() : raw);
    if (id === null) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return id;
  });

/** A `<select>` of ids with an empty choice: '' or absent -> null. */
export const optionalIdField = (message = INVALID_CHOICE) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = raw?.trim() ?? '';
      if (value === '') return null;
      const id = parseId(value);
      if (id === null) ctx.addIssue({ code: 'custom', message });
      return id;
    });

/** A repeated field of ids (checkboxes): one value, several, or none; at most 100. */
export const idListField = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((raw, ctx) => {
    const values = raw === undefined ? [] : [raw].flat().filter((value) => value.trim() !== '');
    const ids = values.map((value) => parseId(value.trim()));
    if (ids.some((id) => id === null) || ids.length > 100) ctx.addIssue({ code: 'custom', message: INVALID_CHOICE });
    return [...new Set(ids.filter((id): id is number => id !== null))];
  });

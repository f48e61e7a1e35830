import { z } from 'zod';
import { NotFound } from '../../errors.js';

/** The largest id a 32-bit integer column holds; a bigger number is nobody's id (and not a 500). */
export const MAX_ID = 2_147_483_647;
const DIGITS = /^[0-9]{1,10}$/;

export function toId(raw: string | undefined): number | null {
  if (raw === undefined || !DIGITS.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_ID ? id : null;
}

/** An id from a path or query string; anything else is the same 404 as an absent object. */
export function idOr404(raw: string | undefined): number {
  const id = toId(raw);
  if (id === null) throw new NotFound();
  return id;
}

const INVALID_CHOICE = 'Select a valid choice. That choice is not one of the available choices.';

/** A form's `<select>` of ids with an empty choice: '' or absent -> null. */
export const optionalIdField = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const value = raw?.trim() ?? '';
    if (value === '') return null;
    const id = toId(value);
    if (id === null) ctx.addIssue({ code: 'custom', message: INVALID_CHOICE });
    return id;
  });

/** A repeated field of ids (checkboxes): one value, several, or none. */
export const idListField = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((raw, ctx) => {
    const values = raw === undefined ? [] : [raw].flat().filter((value) => value.trim() !== '');
    const ids = values.map((value) => toId(value.trim()));
    if (ids.some((id) => id === null) || ids.length > 100) ctx.addIssue({ code: 'custom', message: INVALID_CHOICE });
    return [...new Set(ids.filter((id): id is number => id !== null))];
  });

export { INVALID_CHOICE };

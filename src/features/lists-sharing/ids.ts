import { NotFound } from '../../errors.js';

/** The largest id an `integer` column holds on PostgreSQL; a larger one would be a SQL error, not a 404. */
const MAX_ID = 2_147_483_647;

/** A positive integer id, or null: for ids typed into form fields. */
export function parseId(raw: unknown): number | null {
  if (typeof raw !== 'string' || !/^[0-9]{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_ID ? id : null;
}

/** The `<pk>` of a path: anything but a valid id is the same 404 as an absent object. */
export function pathId(params: unknown): number {
  const raw = params && typeof params === 'object' && 'pk' in params ? params.pk : undefined;
  const id = parseId(raw);
  if (id === null) throw new NotFound();
  return id;
}

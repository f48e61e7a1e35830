import { z } from 'zod';
import { msg } from '../i18n/index.js';

/** `#rrggbb`, stored lowercase. Only this shape reaches an attribute, so it cannot break out. */
export const colorField = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((raw) => (raw === undefined || raw.trim() === '' ? fallback : raw.trim()))
    .pipe(z.string().regex(/^#[0-9a-fA-F]{6}$/, msg('form.color')))
    .transform((color) => color.toLowerCase());

/**
 * A colour dot. An SVG fill attribute is not an inline style, so it works under the
 * Content-Security-Policy (style-src 'self') without loosening it.
 */
export function Swatch({ color }: { color: string }) {
  return (
    <svg class="swatch" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      <circle cx="6" cy="6" r="6" fill={color} />
    </svg>
  );
}

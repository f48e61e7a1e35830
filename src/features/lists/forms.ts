import { z } from 'zod';
import { msg } from '../../platform/i18n/index.js';
import { parseId } from '../../platform/ids.js';
import { permissionField } from './sharing.js';

// What every kind's list form has: its title, and (kinds with groups) its group with the
// group's permission.

export const TITLE_MAX = 200;

/** A list's title: required, trimmed, at most TITLE_MAX characters. */
export const listTitle = z
  .string({ error: msg('lists.title_required') })
  .trim()
  .min(1, msg('lists.title_required'))
  .max(TITLE_MAX, msg('lists.title_max'));

/**
 * A list's group: a group's id, or '' (and a form without the field) for none. Only the shape
 * here; that the owner belongs to the group is the service's check (groups.ts).
 */
export const listGroup = z
  .string()
  .trim()
  .optional()
  .default('')
  .transform((text, ctx) => {
    if (text === '') return null;
    const id = parseId(text);
    if (id !== null) return id;
    ctx.addIssue({ code: 'custom', message: msg('lists.choose_group') });
    return z.NEVER;
  });

/** What the group's members may do; kept without a group, where it means nothing. */
export const listGroupPermission = permissionField.optional().default('read');

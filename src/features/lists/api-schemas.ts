import { z } from 'zod';
import type { SharePermission } from '../../db/schema.js';
import { msg } from '../../platform/i18n/index.js';
import { MAX_ID } from '../../platform/ids.js';
import { permissionField, shareForm, type SharedUser } from './sharing.js';

// The JSON every kind of list shares: times, shares and their permission. Each kind's
// api-schemas.ts adds its own fields.

export const timestamp = z.string().describe('ISO 8601, UTC.');

export const isoTime = (milliseconds: number) => new Date(milliseconds).toISOString();

/** What a share (or a list's group) allows: the form's field, with its message. */
export const permission = permissionField.describe('`read`: may read the list; `tick`: may also tick and add items (never rename, delete or re-share it).');

const GROUP_CHOICE = msg('lists.choose_group');

/** A list's group in a body (the form's `group`): one of the caller's groups, or null for none. */
export const groupBody = z.number({ error: GROUP_CHOICE }).int(GROUP_CHOICE).min(1, GROUP_CHOICE).max(MAX_ID, GROUP_CHOICE).nullable().describe('A group you belong to, or null.');

/** A list's group and what its members may do, as every kind with groups answers them. */
export const groupJson = {
  group: z.number().int().nullable().describe('The id of the group whose members read it, or null.'),
  group_permission: permission.nullable().describe('What the group\'s members may do, `read` or `tick`; null without a group.'),
};

/** The list's group and its permission as JSON (no permission without a group). */
export function groupOut(list: { group_id: number | null; group_permission: SharePermission }) {
  return { group: list.group_id, group_permission: list.group_id === null ? null : list.group_permission };
}

export const shareJson = z.object({ username: z.string(), permission });

export const sharesJson = z.array(shareJson).nullable().describe('Who the list is shared with: shown to its owner only, null for anyone else.');

export const shareCountJson = z.number().int().describe('How many people the list is shared with by name, shown to whoever reads it (their names, `shares`, to its owner only).');

/** Who a list is shared with, for its owner only, as the page shows it. */
export function sharesOf(list: { owner_id: number }, userId: number, sharedWith: SharedUser[]) {
  return list.owner_id === userId ? sharedWith.map((user) => ({ username: user.username, permission: user.permission })) : null;
}

export const shareBody = z
  .object({
    username: shareForm.shape.username,
    action: shareForm.shape.action,
    permission: permission.optional().describe('For `add`: `read` (the default) or `tick`; adding an existing user changes their permission.'),
  })
  .strict();

/** The body that ticks an item or not, in the kind's own word (`is_done`, `is_bought`), read as done or not. */
export function donePatch<Field extends string>(field: Field) {
  const shape = { [field]: z.boolean({ error: msg('lists.send_boolean') }) } as Record<Field, z.ZodBoolean>;
  return z
    .object(shape)
    .strict()
    .transform((body) => (body as Record<string, boolean>)[field] === true);
}

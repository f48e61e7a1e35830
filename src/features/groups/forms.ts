import { z } from 'zod';
import { checkIdentityName } from '../../platform/identity-key.js';
import { msg } from '../../platform/i18n/index.js';
import { idField } from '../../platform/ids.js';

export const groupForm = z.object({
  name: z
    .string({ error: msg('group_form.name_required') })
    .trim()
    // Each check stops the next: an empty name is said to be empty once, not also by the key check.
    .min(1, { error: msg('group_form.name_required'), abort: true })
    .max(150, { error: msg('group_form.name_max'), abort: true })
    .superRefine(checkIdentityName({ empty: msg('group_form.name_required'), tooLong: msg('group_form.name_too_long') })),
});

export const memberActionForm = z.object({
  action: z.enum(['add', 'remove'], { error: msg('group_form.action_required') }),
});

export const addMemberForm = z.object({
  username: z
    .string({ error: msg('group_form.username_required') })
    .trim()
    .min(1, msg('group_form.username_required'))
    .max(150, msg('group_form.username_max')),
});

export const removeMemberForm = z.object({
  user_pk: idField(msg('group_form.member_required')),
});

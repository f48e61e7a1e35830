import { z } from 'zod';
import { checkIdentityName } from '../../platform/identity-key.js';
import { msg } from '../../platform/i18n/index.js';
import { idField, optionalIdField } from '../../platform/ids.js';

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

/** `?before=<message_id>` of the older-history endpoint; absent means "the latest". */
export const historyQuery = z.object({
  before: optionalIdField(msg('chat.before_invalid')).transform((id) => id ?? undefined),
});

/**
 * What a chat client sends: `{"content": "..."}`, 1 to 2000 characters once trimmed. Its messages
 * are keys, put in the sender's language (chat.frame_shape's `{example}` is the frame's shape).
 */
export const MAX_CHAT_LENGTH = 2000;
export const chatFrame = z.object({
  content: z
    .string({ error: msg('chat.frame_shape') })
    .trim()
    .min(1, msg('chat.frame_empty'))
    .max(MAX_CHAT_LENGTH, msg('chat.frame_too_long')),
});

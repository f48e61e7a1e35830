import { z } from 'zod';
import { checkIdentityName } from '../../platform/identity-key.js';
import { idField, optionalIdField } from '../../platform/ids.js';

export const groupForm = z.object({
  name: z
    .string({ error: 'Enter a name for the group.' })
    .trim()
    // Each check stops the next: an empty name is said to be empty once, not also by the key check.
    .min(1, { error: 'Enter a name for the group.', abort: true })
    .max(150, { error: 'Group names have at most 150 characters.', abort: true })
    .superRefine(checkIdentityName({ empty: 'Enter a name for the group.', tooLong: 'That group name is too long.' })),
});

export const memberActionForm = z.object({
  action: z.enum(['add', 'remove'], { error: 'Choose to add or remove a member.' }),
});

export const addMemberForm = z.object({
  username: z.string({ error: 'Enter the username of the person to add.' }).trim().min(1, 'Enter the username of the person to add.').max(150, 'Usernames have at most 150 characters.'),
});

export const removeMemberForm = z.object({
  user_pk: idField('Choose a member to remove.'),
});

/** `?before=<message_id>` of the older-history endpoint; absent means "the latest". */
export const historyQuery = z.object({
  before: optionalIdField('before must be a message id').transform((id) => id ?? undefined),
});

/** What a chat client sends: `{"content": "..."}`, 1 to 2000 characters once trimmed. */
export const MAX_CHAT_LENGTH = 2000;
export const chatFrame = z.object({
  content: z
    .string({ error: 'send {"content": "..."}' })
    .trim()
    .min(1, 'message is empty')
    .max(MAX_CHAT_LENGTH, `message is too long (${MAX_CHAT_LENGTH} characters at most)`),
});

import { z } from 'zod';
import { textField } from '../../../platform/forms.js';
import { msg } from '../../../platform/i18n/index.js';
import { optionalIdField } from '../../../platform/ids.js';

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

/**
 * What chat.js sends when its page goes out of sight or comes back: `{"type":"visibility","visible":false}`.
 * Messages are read only while their page is in sight.
 */
export const visibilityFrame = z.strictObject({ type: z.literal('visibility'), visible: z.boolean() });

/** The edit page's form: a message's rule (1 to 2000 characters once trimmed), in a form's words. */
export const messageForm = z.object({ content: textField(MAX_CHAT_LENGTH) });

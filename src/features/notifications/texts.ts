import type { Message, MessageKey, MessageValues } from '../../platform/i18n/index.js';

// A notification keeps its words as a catalogue key with values (platform/notifications.ts,
// migration 0023), so each reader sees it in their own language; one written before that (or a
// reminder, whose words are in its owner's language already) is shown by the text it was stored with.

/** A notification's words: its message, to be put in the reader's language, else its text as stored. */
export function notificationMessage(notification: { text: string; message: string }): Message {
  if (!notification.message) return notification.text;
  try {
    const value = JSON.parse(notification.message) as { key?: unknown; values?: unknown };
    if (typeof value.key !== 'string') return notification.text;
    return { key: value.key as MessageKey, values: (value.values ?? {}) as MessageValues };
  } catch {
    return notification.text;
  }
}

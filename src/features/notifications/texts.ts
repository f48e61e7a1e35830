import type { MessageKey, MessageValues, Translator } from '../../platform/i18n/index.js';

// A notification is stored with its text, in English, as it was sent (platform/notifications.ts;
// no column holds its values). The groups' own kinds are written here and read back here into
// their values, so that each reader sees them in their own language; any other text (a shared
// list, a reminder) is shown as it was stored. Usernames hold no spaces, so the reading is exact.

export const groupAddedText = (addedBy: string | undefined, group: string) =>
  addedBy ? `${addedBy} added you to the group ${group}` : `You were added to the group ${group}`;

export const mentionText = (author: string, group: string) => `${author} mentioned you in ${group}`;

interface Reading {
  kind: string;
  pattern: RegExp;
  key: MessageKey;
  values: (match: RegExpExecArray) => MessageValues;
}

const READINGS: readonly Reading[] = [
  { kind: 'group.added', pattern: /^(\S+) added you to the group (.+)$/su, key: 'notifications.group_added_by', values: (m) => ({ by: m[1]!, group: m[2]! }) },
  { kind: 'group.added', pattern: /^You were added to the group (.+)$/su, key: 'notifications.group_added', values: (m) => ({ group: m[1]! }) },
  { kind: 'chat.mention', pattern: /^(\S+) mentioned you in (.+)$/su, key: 'notifications.chat_mention', values: (m) => ({ author: m[1]!, group: m[2]! }) },
];

/** A notification's text in the reader's language where its kind is one of these, else as stored. */
export function notificationText(t: Translator['t'], notification: { kind: string; text: string }): string {
  for (const reading of READINGS) {
    if (reading.kind !== notification.kind) continue;
    const match = reading.pattern.exec(notification.text);
    if (match) return t(reading.key, reading.values(match));
  }
  return notification.text;
}

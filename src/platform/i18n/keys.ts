import type accounts from '../../../locales/en/accounts.json';
import type admin from '../../../locales/en/admin.json';
import type groups from '../../../locales/en/groups.json';
import type lists from '../../../locales/en/lists.json';
import type notes from '../../../locales/en/notes.json';
import type platform from '../../../locales/en/platform.json';

/**
 * Every key of the catalogue: English's, one file per area of the interface (locales/en/*.json),
 * so that a mistyped key is a compile error. A new area's file is added here; a new language
 * needs nothing here.
 */
export type MessageKey =
  | keyof typeof accounts
  | keyof typeof admin
  | keyof typeof groups
  | keyof typeof lists
  | keyof typeof notes
  | keyof typeof platform;

/** A key, checked by the compiler, where a message is named before it is shown (a form schema's error). */
export function msg<K extends MessageKey>(key: K): K {
  return key;
}

/** A key with its values, checked by the compiler, to be put in the reader's language later (a notification). */
export function msgWith(key: MessageKey, values: Record<string, string | number>): { key: MessageKey; values: Record<string, string | number> } {
  return { key, values };
}

import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { isOneOf } from '../../../db/id-lists.js';
import { identityKey } from '../../../platform/identity-key.js';

/** A message notifies at most this many people: a paste of the member list is not a broadcast tool. */
export const MAX_MENTIONS = 10;

// `@name` at the start or after anything that cannot be part of a name, so that an address like
// ann@example.com mentions nobody. Names are letters, digits and . + - _ (and @, which ends a
// mention here: `@ann@bob` is ann).
const MENTION = /(?<![\p{L}\p{N}_.+@-])@([\p{L}\p{N}_.+-]{1,150})/gu;

/**
 * Each `@name` the message mentions, where it starts in the text, among the first MAX_MENTIONS
 * distinct names (those past it notify nobody). public/js/chat-mentions.js follows the same rule.
 */
function* mentions(content: string): Generator<{ index: number; name: string }> {
  const names = new Set<string>();
  for (const match of content.matchAll(MENTION)) {
    const name = match[1]!;
    if (!names.has(name)) {
      names.add(name);
      if (names.size > MAX_MENTIONS) return;
    }
    yield { index: match.index, name };
  }
}

/** A name followed by full stops (`thanks @ann.`) is tried with and without them. */
function withoutFullStops(name: string): string {
  return name.replace(/[.]+$/u, '');
}

/**
 * The identity keys (platform/identity-key.ts, as every lookup by name compares) of the names a
 * message mentions, at most MAX_MENTIONS of them. A name followed by a full stop (`thanks @ann.`)
 * is tried with and without it.
 */
export function mentionedKeys(content: string): string[] {
  const keys: string[] = [];
  for (const { name } of mentions(content)) {
    keys.push(identityKey(name));
    const trimmed = withoutFullStops(name);
    if (trimmed !== name && trimmed !== '') keys.push(identityKey(trimmed));
  }
  return [...new Set(keys)];
}

/** A run of a message's text: plain, or the mention of the member whose identity key is `mention`. */
export interface MessagePart {
  text: string;
  mention?: string;
}

/**
 * The message's text cut into plain runs and mentions of the members named by identity key, as
 * mentionedKeys reads them: the runs joined give the text back.
 */
export function mentionParts(content: string, memberKeys: ReadonlySet<string>): MessagePart[] {
  const parts: MessagePart[] = [];
  let last = 0;
  for (const { index, name } of mentions(content)) {
    const mentioned = [name, withoutFullStops(name)].find((candidate) => candidate !== '' && memberKeys.has(identityKey(candidate)));
    if (mentioned === undefined) continue;
    if (index > last) parts.push({ text: content.slice(last, index) });
    parts.push({ text: `@${mentioned}`, mention: identityKey(mentioned) });
    last = index + 1 + mentioned.length;
  }
  if (last < content.length) parts.push({ text: content.slice(last) });
  return parts;
}

/** Of the names mentioned, the members of the group other than the author, and the group's name. */
export async function mentionedMembers(db: Kysely<Database>, groupId: number, authorId: number, keys: readonly string[]): Promise<{ ids: number[]; groupName: string } | null> {
  if (keys.length === 0) return null;
  const rows = await db
    .selectFrom('group_members')
    .innerJoin('users', 'users.id', 'group_members.user_id')
    .innerJoin('groups', 'groups.id', 'group_members.group_id')
    .select(['users.id', 'groups.name'])
    .where('group_members.group_id', '=', groupId)
    .where('users.id', '!=', authorId)
    .where((eb) => isOneOf(db, eb.ref('users.username_key'), keys))
    .limit(MAX_MENTIONS)
    .execute();
  return rows.length === 0 ? null : { ids: rows.map((row) => row.id), groupName: rows[0]!.name };
}

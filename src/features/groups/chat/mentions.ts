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
 * The identity keys (platform/identity-key.ts, as every lookup by name compares) of the names a
 * message mentions, at most MAX_MENTIONS of them. A name followed by a full stop (`thanks @ann.`)
 * is tried with and without it.
 */
export function mentionedKeys(content: string): string[] {
  const keys: string[] = [];
  const names = new Set<string>();
  for (const match of content.matchAll(MENTION)) {
    const name = match[1]!;
    if (names.has(name)) continue;
    names.add(name);
    if (names.size > MAX_MENTIONS) break;
    keys.push(identityKey(name));
    const trimmed = name.replace(/[.]+$/u, '');
    if (trimmed !== name && trimmed !== '') keys.push(identityKey(trimmed));
  }
  return [...new Set(keys)];
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

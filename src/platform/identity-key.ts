import type { z } from 'zod';
import { msg } from './i18n/keys.js';

// The one definition of "the same name" for usernames, group names and tag names. The key is
// worked out here, in JavaScript, and stored beside the name (`users.username_key`,
// `groups.name_key`, `tags.name_key`) under a unique index; every lookup by name compares keys.
// Folding in SQL cannot do this: SQLite's lower() folds A-Z only, PostgreSQL's depends on the
// database's locale, and neither knows NFKC. Migration 0006 carries a frozen copy of this function:
// change one, change the other, in a new migration that recomputes the stored keys.

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const WHITESPACE_RUN = /\s+/gu;
// What Unicode's default folding leaves of a Turkish capital İ: i followed by a combining dot.
const DOTTED_I = /i\u0307/gu;

/**
 * Two names are the same name when their keys are equal. The key is, in order:
 * - NFKC: compatibility forms become their plain letters (fullwidth `Ｅｍｉｌｅ` is `Emile`, the
 *   ligature `ﬁ` is `fi`, a decomposed `é` is the precomposed one);
 * - without default-ignorable code points (zero-width spaces, joiners, Hangul fillers): they
 *   show nothing, so `Zoé` and `Zoé` with an invisible letter added cannot be two people;
 * - fully case-folded: lower, upper, lower again, so that `ß`, `ẞ`, `SS` and `ss` are one, and
 *   final and medial sigma are one (JavaScript's case mappings are full and locale-free);
 * - the four Turkish i's (`i`, `I`, `ı`, `İ`) are one letter, as Turkish speakers type either
 *   capital for either small letter and they look alike;
 * - NFKC again (case mapping can leave a letter decomposed), then surrounding whitespace
 *   trimmed and inner runs made one space, since a page shows `a  b` as `a b`.
 * Accents are kept: `Emile` and `Émile` are different names. Idempotent (`identityKey` of a key
 * is the key), which a test checks for every code point.
 */
export function identityKey(name: string): string {
  return name
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .replace(DOTTED_I, 'i')
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(WHITESPACE_RUN, ' ')
    .trim();
}

/**
 * The longest key stored. A name of 150 characters can fold to far more (NFKC turns one Arabic
 * ligature into 18 letters); 600 characters are at most 2,400 bytes, under PostgreSQL's limit
 * for one btree index entry, so a key that fits never makes an insert fail.
 */
export const MAX_IDENTITY_KEY_LENGTH = 600;

/** Why a name cannot be an identity (it shows nothing, or folds too long), or null when it can. */
export function identityKeyProblem(name: string): 'empty' | 'too long' | null {
  const key = identityKey(name);
  if (key === '') return 'empty';
  return key.length > MAX_IDENTITY_KEY_LENGTH ? 'too long' : null;
}

/** What a name that cannot be an identity is told, unless its form has words of its own. */
const NAME_MESSAGES = { empty: msg('name.empty'), tooLong: msg('name.too_long') };

/**
 * A form's check (zod `superRefine`) that a name can be an identity. The messages are catalogue
 * keys (the page shows them in its language): the form's own, else 'name.empty' / 'name.too_long'.
 */
export function checkIdentityName(messages: { empty: string; tooLong: string } = NAME_MESSAGES) {
  return (name: string, ctx: z.RefinementCtx<string>): void => {
    const problem = identityKeyProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem === 'empty' ? messages.empty : messages.tooLong });
  };
}

/**
 * `name`, or the first of "name (2)", "name (3)"... whose key is not in `taken` (cut to fit
 * `maxLength`): how an import keeps a second "recipes" beside "Recipes" without a clash.
 */
export function distinctName(name: string, taken: ReadonlySet<string>, maxLength: number): string {
  if (!taken.has(identityKey(name))) return name;
  for (let n = 2; ; n += 1) {
    const suffix = ` (${n})`;
    const candidate = `${[...name].slice(0, maxLength - suffix.length).join('').trimEnd()}${suffix}`;
    if (!taken.has(identityKey(candidate))) return candidate;
  }
}

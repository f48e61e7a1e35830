import unhomoglyph from 'unhomoglyph';
import { MAX_IDENTITY_KEY_LENGTH } from '../../platform/identity-key.js';
import { msg } from '../../platform/i18n/keys.js';
import { mixesScripts } from './scripts.js';

// Usernames that look the same are one username. Beside the identity key (case, width and
// invisible letters folded), each user has a skeleton (Unicode TR39): every character replaced by
// the one it can pass for (Cyrillic `а` and `с` by Latin `a` and `c`, `0` by `O`, `I` by `l`),
// from Unicode's confusables.txt as the `unhomoglyph` package carries it. `асе` in Cyrillic letters
// has the skeleton of Latin `ace`: the second of them to register is refused. Migration 0026
// carries a frozen copy of `usernameSkeleton`: change one, change the other, in a new migration
// that recomputes the stored skeletons.

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const WHITESPACE_RUN = /\s+/gu;

/** Each character by the one it can pass for, decomposed before and after (TR39's skeleton). */
const prototypes = (text: string) => unhomoglyph(text.normalize('NFD')).normalize('NFD');

/**
 * The skeleton of a username as it shows (its letter case kept, since `Ivan` shows like `lvan`
 * and `B0B` like `BOB`), then lower-cased and mapped again: names that differ in case alone are
 * one name by their key already, and a capital's small letter may pass for another letter.
 */
export function usernameSkeleton(username: string): string {
  const shown = username.normalize('NFKC').replace(INVISIBLE, '').replace(WHITESPACE_RUN, ' ').trim();
  return prototypes(prototypes(shown).toLowerCase());
}

/**
 * Why a new username is refused for how it looks, or null: it mixes writing systems, or its
 * skeleton is longer than an index entry holds. Names in use before this rule are kept.
 */
export function lookalikeProblem(username: string): 'form.username_mixed_scripts' | 'form.username_folds_too_long' | null {
  if (mixesScripts(username.normalize('NFKC').replace(INVISIBLE, ''))) return msg('form.username_mixed_scripts');
  return usernameSkeleton(username).length > MAX_IDENTITY_KEY_LENGTH ? msg('form.username_folds_too_long') : null;
}

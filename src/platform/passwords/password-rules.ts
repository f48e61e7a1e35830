import { dictionary } from '@zxcvbn-ts/language-common';
import { type MessageKey, msg } from '../i18n/index.js';

// Django's default password validators: minimum length, user attribute similarity,
// common passwords and all-numeric, with Django's messages (catalogue keys: the form shows them
// in the page's language).

const MIN_LENGTH = 8;
const MAX_SIMILARITY = 0.7;
const commonPasswords = new Set<string>(dictionary['passwords-common'] as string[]);

/** Python's difflib.SequenceMatcher.quick_ratio(): an upper bound on similarity from shared characters. */
function quickRatio(a: string, b: string): number {
  const counts = new Map<string, number>();
  for (const ch of b) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let matches = 0;
  for (const ch of a) {
    const left = counts.get(ch) ?? 0;
    if (left > 0) {
      matches++;
      counts.set(ch, left - 1);
    }
  }
  const total = a.length + b.length;
  return total === 0 ? 1 : (2 * matches) / total;
}

/** A rule broken: a catalogue key, with the length the rule asks for when it is about length. */
export interface PasswordProblem {
  key: MessageKey;
  values?: { min: number };
}

function tooSimilar(password: string, attributes: [MessageKey, string][]): PasswordProblem | null {
  const lower = password.toLowerCase();
  for (const [key, value] of attributes) {
    if (!value) continue;
    const parts = [value, ...value.split(/\W+/)].map((part) => part.toLowerCase()).filter(Boolean);
    for (const part of parts) {
      // Django skips comparisons that cannot reach the threshold because of the length difference.
      if (lower.length >= 10 * part.length && part.length < MAX_SIMILARITY * 10) continue;
      if (quickRatio(lower, part) >= MAX_SIMILARITY) return { key };
    }
  }
  return null;
}

/** Every rule the password breaks, as messages for the form; empty when it is acceptable. */
export function passwordProblems(password: string, user: { username: string; email?: string }): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  const similar = tooSimilar(password, [
    [msg('password.too_similar_username'), user.username],
    [msg('password.too_similar_email'), user.email ?? ''],
  ]);
  if (similar) problems.push(similar);
  if (password.length < MIN_LENGTH) {
    problems.push({ key: msg('password.too_short'), values: { min: MIN_LENGTH } });
  }
  if (commonPasswords.has(password.toLowerCase().trim())) problems.push({ key: msg('password.too_common') });
  if (/^\d+$/.test(password)) problems.push({ key: msg('password.numeric') });
  return problems;
}

import { dictionary } from '@zxcvbn-ts/language-common';

// Django's default password validators: minimum length, user attribute similarity,
// common passwords and all-numeric, with Django's messages.

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

function tooSimilar(password: string, attributes: Record<string, string>): string | null {
  const lower = password.toLowerCase();
  for (const [label, value] of Object.entries(attributes)) {
    if (!value) continue;
    const parts = [value, ...value.split(/\W+/)].map((part) => part.toLowerCase()).filter(Boolean);
    for (const part of parts) {
      // Django skips comparisons that cannot reach the threshold because of the length difference.
      if (lower.length >= 10 * part.length && part.length < MAX_SIMILARITY * 10) continue;
      if (quickRatio(lower, part) >= MAX_SIMILARITY) return `The password is too similar to the ${label}.`;
    }
  }
  return null;
}

/** Every rule the password breaks, as messages for the form; empty when it is acceptable. */
export function passwordProblems(password: string, user: { username: string; email?: string }): string[] {
  const problems: string[] = [];
  const similar = tooSimilar(password, { username: user.username, 'email address': user.email ?? '' });
  if (similar) problems.push(similar);
  if (password.length < MIN_LENGTH) {
    problems.push(`This password is too short. It must contain at least ${MIN_LENGTH} characters.`);
  }
  if (commonPasswords.has(password.toLowerCase().trim())) problems.push('This password is too common.');
  if (/^\d+$/.test(password)) problems.push('This password is entirely numeric.');
  return problems;
}

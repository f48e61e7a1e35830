const BASE = 'http://groupnotes.invalid';

/**
 * `?next=` only ever leads to a path on this site. Rejected: absolute URLs, `//host` and `/\host`
 * (browsers read both as another host), backslashes and control characters (browsers drop tabs
 * and newlines, so `/\t/host` would become `//host`).
 */
export function safeNextPath(next: unknown, fallback: string): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.length > 2000) return fallback;
  if (next.includes('\\') || hasControlCharacter(next) || next.startsWith('//')) return fallback;
  const resolved = new URL(next, BASE);
  return resolved.origin === BASE ? next : fallback;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

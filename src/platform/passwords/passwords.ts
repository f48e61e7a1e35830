import { randomFillSync, timingSafeEqual } from 'node:crypto';
import { hasher } from './hash-pool.js';

// Django's PBKDF2PasswordHasher format, so users of the Django application keep their passwords:
// pbkdf2_sha256$<iterations>$<salt>$<base64 of the 32-byte PBKDF2-HMAC-SHA256 digest>.

const ALGORITHM = 'pbkdf2_sha256';
const SALT_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * Random bytes from the system CSPRNG, drawn 4 KiB at a time (as crypto.randomInt does with its
 * own cache): a crypto call per character was most of the cost of a page's CSRF token.
 */
const randomPool = Buffer.alloc(4096);
let randomPoolUsed = randomPool.length;

function randomByte(): number {
  if (randomPoolUsed === randomPool.length) {
    randomFillSync(randomPool);
    randomPoolUsed = 0;
  }
  return randomPool[randomPoolUsed++]!;
}

/** Where randomString writes its characters' codes, read out as one string at the end. */
const drawn = Buffer.alloc(256);

/** `length` characters drawn uniformly from `alphabet` (ASCII, at most 256 characters long). */
export function randomString(length: number, alphabet = SALT_CHARS): string {
  // Bytes at or above the largest multiple of the alphabet's length are drawn again: using them
  // would make the first characters of the alphabet more likely than the others.
  const limit = 256 - (256 % alphabet.length);
  // One string at the end: appending a character at a time made a new string per character.
  const out = length <= drawn.length ? drawn : Buffer.allocUnsafe(length);
  for (let i = 0; i < length; ) {
    const byte = randomByte();
    if (byte < limit) out[i++] = alphabet.charCodeAt(byte % alphabet.length);
  }
  return out.toString('latin1', 0, length);
}

function digest(password: string, salt: string, iterations: number): Promise<Buffer> {
  // Never on the event loop: on low-priority worker threads (hash-pool.ts).
  return hasher().pbkdf2(password, salt, iterations);
}

export async function hashPassword(password: string, iterations: number, salt = randomString(22)): Promise<string> {
  const hash = await digest(password, salt, iterations);
  return `${ALGORITHM}$${iterations}$${salt}$${hash.toString('base64')}`;
}

interface ParsedHash {
  iterations: number;
  salt: string;
  hash: Buffer;
}

function parseHash(encoded: string): ParsedHash | null {
  const [algorithm, iterations, salt, hash] = encoded.split('$');
  if (algorithm !== ALGORITHM || !iterations || !/^\d+$/.test(iterations) || !salt || !hash) return null;
  return { iterations: Number(iterations), salt, hash: Buffer.from(hash, 'base64') };
}

export interface Verification {
  ok: boolean;
  /** The hash is weaker than the configured cost and should be replaced now that we know the password. */
  needsRehash: boolean;
}

export async function verifyPassword(password: string, encoded: string, currentIterations: number): Promise<Verification> {
  const parsed = parseHash(encoded);
  if (!parsed || parsed.hash.length !== 32) {
    // Unusable hash: spend the same time anyway, so the answer does not reveal which case this was.
    await digest(password, 'unusable', currentIterations);
    return { ok: false, needsRehash: false };
  }
  const computed = await digest(password, parsed.salt, parsed.iterations);
  const ok = timingSafeEqual(computed, parsed.hash);
  return { ok, needsRehash: ok && parsed.iterations < currentIterations };
}

/** Costs what verifying a real password costs: used for unknown usernames, against enumeration by timing. */
export async function spendVerificationTime(password: string, iterations: number): Promise<void> {
  await digest(password, 'no-such-user', iterations);
}

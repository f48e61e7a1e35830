import { createHash, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { randomString } from '../../platform/passwords/passwords.js';

// The codes of two-factor sign-in. TOTP itself (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps,
// what every authenticator app expects) is the `otpauth` library's; the QR code is `qrcode`'s,
// drawn here as SVG, so no outside service ever sees a secret.

const ISSUER = 'groupnotes';
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** One step either way (RFC 6238 section 5.2): a phone whose clock is up to 30 s off still works. */
const WINDOW = 1;
/** 160 bits, the HMAC-SHA1 key size RFC 4226 recommends. */
const SECRET_BYTES = 20;

export const RECOVERY_CODE_COUNT = 10;
/** Crockford's base32: no i, l, o or u, so a code copied by hand is not misread. */
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** 16 letters of 5 bits: 80 bits, far beyond guessing, even offline against the stored hash. */
const RECOVERY_LENGTH = 16;

export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

function totp(secret: string, label = ISSUER): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** The `otpauth://` address an authenticator app reads from the QR code. */
export function totpUri(secret: string, username: string): string {
  return totp(secret, username).toString();
}

/** "123 456" and "123456" are one code; anything else that is six digits after that is not a TOTP code. */
export function asTotpCode(input: string): string | null {
  const digits = input.replace(/\s+/g, '');
  return digits.length === DIGITS && /^\d+$/.test(digits) ? digits : null;
}

/** The time step a TOTP code belongs to, or null when it matches none within the window. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  const delta = totp(secret).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PERIOD_SECONDS, timestamp: now }) + delta;
}

/** The QR code of `text` as a `data:` image (the CSP allows `data:` images, nothing remote). */
export async function qrCodeImage(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** Ten fresh recovery codes, as shown to the person: `abcd-efgh-jkmn-pqrs`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => randomString(RECOVERY_LENGTH, RECOVERY_ALPHABET).match(/.{4}/g)!.join('-'));
}

/**
 * What is stored of a recovery code: SHA-256 of the code without case, spaces or dashes. The code
 * carries 80 random bits, so an unsalted fast hash cannot be reversed by guessing.
 */
export function recoveryCodeHash(code: string): string {
  const normalised = code.toLowerCase().replace(/[\s-]+/g, '');
  return createHash('sha256').update(normalised).digest('hex');
}

/** Which of the stored hashes the typed code matches (-1 for none); every one is compared in constant time. */
export function matchingRecoveryCode(storedHashes: string[], typed: string): number {
  const candidate = Buffer.from(recoveryCodeHash(typed), 'hex');
  let found = -1;
  storedHashes.forEach((stored, index) => {
    const hash = Buffer.from(stored, 'hex');
    if (hash.length === candidate.length && timingSafeEqual(hash, candidate)) found = index;
  });
  return found;
}

import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { hashPassword, randomString, verifyPassword } from './passwords.js';
import { passwordProblems } from './password-rules.js';
import { translate, translator } from '../i18n/index.js';

// These run at the real cost (1,000,000 and 870,000 iterations), as the default configuration does.
const DEFAULT_ITERATIONS = loadConfig({ SECRET_KEY: 'x'.repeat(40) }).pbkdf2Iterations;

describe('Django pbkdf2_sha256 hashes', () => {
  it('uses 1,000,000 iterations by default', () => {
    expect(DEFAULT_ITERATIONS).toBe(1_000_000);
  });

  it('verifies the Django vector for "correct horse battery staple" at 1,000,000 iterations', async () => {
    const encoded = 'pbkdf2_sha256$1000000$seedsalt0123456789abcd$qyDUBpK8r9kNcsLQ4hOxkvIUjNICoPW5/MTjQmZdO6g=';
    expect(await verifyPassword('correct horse battery staple', encoded, DEFAULT_ITERATIONS)).toEqual({ ok: true, needsRehash: false });
    expect((await verifyPassword('correct horse battery stapler', encoded, DEFAULT_ITERATIONS)).ok).toBe(false);
  });

  it('verifies the Django vector for "demo1234" at 870,000 iterations and asks for a rehash', async () => {
    const encoded = 'pbkdf2_sha256$870000$AbCdEfGhIjKlMnOpQrStUv$rkU4ptIdTz1YPvlMt4JRj3jE9c4Ak+cTTXm99iKUn88=';
    expect(await verifyPassword('demo1234', encoded, DEFAULT_ITERATIONS)).toEqual({ ok: true, needsRehash: true });
    expect((await verifyPassword('demo12345', encoded, DEFAULT_ITERATIONS)).ok).toBe(false);
  });

  it('writes hashes in Django format with a 22-character salt that verify again', async () => {
    const encoded = await hashPassword('s3cret-value', 2000);
    expect(encoded).toMatch(/^pbkdf2_sha256\$2000\$[A-Za-z0-9]{22}\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword('s3cret-value', encoded, 2000)).toEqual({ ok: true, needsRehash: false });
  });

  it('rejects malformed and foreign-algorithm hashes without throwing', async () => {
    for (const encoded of ['', 'md5$1$a$b', 'pbkdf2_sha256$x$salt$hash', 'pbkdf2_sha256$1000$salt$c2hvcnQ=']) {
      expect((await verifyPassword('anything', encoded, 1000)).ok).toBe(false);
    }
  });
});

describe('password rules (Django default validators)', () => {
  it('accepts a reasonable password', () => {
    expect(passwordProblems('violet-harbour-71', { username: 'alice' })).toEqual([]);
  });

  it('refuses short, numeric, common and username-like passwords with Django messages', () => {
    // In English, as the form shows them (the messages are catalogue keys).
    const en = translator('en');
    const said = (password: string, user: { username: string; email?: string }) => passwordProblems(password, user).map((problem) => translate(en, problem));
    expect(said('a1b2c3', { username: 'zed' })).toContain('This password is too short. It must contain at least 8 characters.');
    expect(said('8675309123', { username: 'zed' })).toContain('This password is entirely numeric.');
    expect(said('password', { username: 'zed' })).toContain('This password is too common.');
    expect(said('Qwertyuiop', { username: 'zed' })).toContain('This password is too common.');
    expect(said('margaret-smith', { username: 'margaret.smith' })).toContain('The password is too similar to the username.');
    expect(said('jkowalski99', { username: 'zed', email: 'jkowalski@example.com' })).toContain('The password is too similar to the email address.');
  });

  it('are said in Ukrainian too, with Ukrainian plurals', () => {
    const uk = translator('uk');
    expect(passwordProblems('Zq8#vL', { username: 'zed' }).map((problem) => translate(uk, problem))).toEqual([
      'Цей пароль закороткий. У ньому має бути щонайменше 8 символів.',
    ]);
  });
});

describe('randomString', () => {
  it('draws exactly `length` characters of the alphabet', () => {
    for (const length of [1, 22, 32, 100, 300]) expect(randomString(length, 'ab0')).toMatch(new RegExp(`^[ab0]{${length}}$`));
  });

  it('draws every character of a 36-character alphabet equally often (256 is not a multiple of 36)', () => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const counts = new Map<string, number>();
    for (let i = 0; i < 11_250; i++) for (const char of randomString(32, alphabet)) counts.set(char, (counts.get(char) ?? 0) + 1);
    // 10,000 expected each (standard deviation about 100). Without redrawing the bytes above 251,
    // the first four characters would come up 14% more often than the rest.
    expect(counts.size).toBe(36);
    for (const count of counts.values()) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });
});


import { describe, expect, it } from 'vitest';
import { nameKey as migration0006Key } from '../db/migrations/0006_name_keys.js';
import { MAX_IDENTITY_KEY_LENGTH, identityKey, identityKeyProblem } from './identity-key.js';

const same = (a: string, b: string) => expect(identityKey(a), `${a} / ${b}`).toBe(identityKey(b));
const different = (a: string, b: string) => expect(identityKey(a), `${a} / ${b}`).not.toBe(identityKey(b));

describe('identityKey: one name, whatever its spelling on the keyboard', () => {
  it('folds case beyond A-Z, and compatibility forms', () => {
    same('Émile', 'émile');
    same('ÉMILE', 'émile');
    same('E\u0301mile', 'Émile');
    same('Ｅｍｉｌｅ', 'emile');
    same('ﬁeld', 'FIELD');
    same('Ⅻ', 'xii');
  });

  it('makes ß, ẞ, SS and ss one, final and medial sigma one, and the four Turkish i one', () => {
    for (const spelling of ['straße', 'STRASSE', 'Strasse', 'STRAẞE']) same(spelling, 'strasse');
    same('ΟΔΥΣΣΕΥΣ', 'οδυσσευς');
    same('σας', 'σασ');
    for (const i of ['I', 'ı', 'İ']) same(`${i}lker`, 'ilker');
  });

  it('ignores invisible letters and surrounding or repeated whitespace', () => {
    same('Zo\u200bé', 'Zoé');
    same('Zoé\u3164', 'zoé');
    same('  Book\u00a0\u00a0club ', 'book club');
    expect(identityKey('\u3164\u200d')).toBe('');
  });

  it('keeps accents and letters apart', () => {
    different('Emile', 'Émile');
    different('Ilker', 'Ülker');
    different('a b', 'ab');
  });

  it('is idempotent and the same for a letter, its upper case and its lower case, for every code point', () => {
    const failures: string[] = [];
    for (let code = 0; code <= 0x10ffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const letter = String.fromCodePoint(code);
      const key = identityKey(letter);
      if (identityKey(key) !== key || identityKey(letter.toUpperCase()) !== key || identityKey(letter.toLowerCase()) !== key) {
        failures.push(code.toString(16));
      }
    }
    expect(failures).toEqual([]);
  });

  it('says which names cannot be identities: invisible ones and ones that fold too long', () => {
    expect(identityKeyProblem('émile')).toBeNull();
    expect(identityKeyProblem('\u3164')).toBe('empty');
    expect(identityKeyProblem('\ufdfa'.repeat(40))).toBe('too long');
    expect(identityKey('\ufdfa'.repeat(33)).length).toBeLessThanOrEqual(MAX_IDENTITY_KEY_LENGTH);
  });
});

describe('the keys stored by the latest migration that computed them (0006)', () => {
  it('are computed as the application computes them', () => {
    const samples = ['Émile', 'Ｅｍｉｌｅ', 'STRAẞE', 'ΟΔΥΣΣΕΥΣ', 'İlker', 'Zo\u200bé', '  Book\u00a0\u00a0club ', '\ufdfa'];
    expect(samples.map(migration0006Key)).toEqual(samples.map(identityKey));
  });
});

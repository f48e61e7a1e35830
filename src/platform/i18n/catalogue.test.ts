import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import { Catalogue, LANGUAGES, type MessageKey, readMessages } from './catalogue.js';
import { chooseLanguage } from './negotiate.js';

const english = readMessages('en');

/** The names a message takes as values, nested plural and select branches included. */
function argumentsOf(elements: MessageFormatElement[], names = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    names.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) argumentsOf(option.value, names);
    }
  }
  return names;
}

describe('the message catalogues', () => {
  it.each(LANGUAGES.filter((language) => language !== 'en'))('%s has exactly the keys of English, each taking the same values', (language) => {
    const messages = readMessages(language);
    expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort());
    for (const [key, source] of Object.entries(english)) {
      expect([key, [...argumentsOf(parse(messages[key]!))].sort()]).toEqual([key, [...argumentsOf(parse(source))].sort()]);
    }
  });

  it('has no key that no source file uses', () => {
    const sources: string[] = [];
    const walk = (directory: string) => {
      for (const entry of readdirSync(directory, { withFileTypes: true })) {
        const path = join(directory, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts')) sources.push(readFileSync(path, 'utf8'));
      }
    };
    walk(new URL('../..', import.meta.url).pathname);
    const text = sources.join('\n');
    expect(Object.keys(english).filter((key) => !text.includes(`'${key}'`))).toEqual([]);
  });

  it('formats plurals by each language’s own rules (Ukrainian: one, few, many)', () => {
    const catalogue = new Catalogue({ en: { n: '{count, plural, one {# note} other {# notes}}' }, uk: { n: '{count, plural, one {# нотатка} few {# нотатки} many {# нотаток} other {# нотатки}}' } });
    const ukrainian = catalogue.translator('uk');
    expect([1, 3, 5, 11, 21, 22, 1.5].map((count) => ukrainian.t('n' as never, { count }))).toEqual(['1 нотатка', '3 нотатки', '5 нотаток', '11 нотаток', '21 нотатка', '22 нотатки', '1,5 нотатки']);
    expect(catalogue.format('en', 'n' as never, { count: 1 })).toBe('1 note');
  });

  it('says a count the same the second time: kept per message and language, anything else formatted anew', () => {
    const catalogue = new Catalogue(
      {
        en: { n: '{count, plural, one {# note} other {# notes}}', m: '{count, plural, one {# message} other {# messages}}', w: '{count, plural, one {# {what}} other {# {what}s}}' },
        uk: { n: '{count, plural, one {# нотатка} few {# нотатки} many {# нотаток} other {# нотатки}}' },
      },
      true,
    );
    // The plural rules each format asks, watched (not replaced): a kept count must not ask again.
    const selects = vi.spyOn(Intl.PluralRules.prototype, 'select');
    onTestFinished(() => selects.mockRestore());
    const calls: number[] = [];
    for (let time = 0; time < 2; time++) {
      selects.mockClear();
      expect(catalogue.format('en', 'n' as never, { count: 3 })).toBe('⟦3 notes⟧');
      expect(catalogue.format('en', 'm' as never, { count: 3 })).toBe('⟦3 messages⟧');
      expect(catalogue.format('uk', 'n' as never, { count: 3 })).toBe('⟦3 нотатки⟧');
      expect(catalogue.format('uk', 'n' as never, { count: 5 })).toBe('⟦5 нотаток⟧');
      expect(catalogue.format('en', 'w' as never, { count: 3, what: time ? 'dog' : 'cat' })).toBe(time ? '⟦3 dogs⟧' : '⟦3 cats⟧');
      expect(catalogue.format('en', 'n' as never, { count: 1.5 + time })).toBe(time ? '⟦2.5 notes⟧' : '⟦1.5 notes⟧');
      expect(catalogue.format('en', 'n' as never, { count: 1_000 + time })).toBe(time ? '⟦1,001 notes⟧' : '⟦1,000 notes⟧');
      calls.push(selects.mock.calls.length);
    }
    // The first time every one is formatted; the second, only those with other values (the
    // name), a count that is not whole, or one past what is kept.
    expect(calls).toEqual([7, 3]);
  });

  it.each(LANGUAGES)('%s: every message comes out as intl-messageformat writes it, with text, numbers and dates as values', (language) => {
    const catalogue = Catalogue.load();
    const t = catalogue.translator(language).t;
    const moment = new Date(Date.UTC(2026, 10, 26, 9, 30));
    for (const [key, source] of Object.entries(readMessages(language))) {
      const names = [...argumentsOf(parse(source))];
      const valueSets = [
        Object.fromEntries(names.map((name, index) => [name, `<${name} ${index}>`])),
        Object.fromEntries(names.map((name, index) => [name, 1234.5 + index])),
        Object.fromEntries(names.map((name) => [name, moment])),
      ];
      for (const values of valueSets) {
        let expected: string;
        try {
          expected = String(new IntlMessageFormat(source, language).format(values));
        } catch {
          continue; // a plural or select given text or a date: not a call the app makes
        }
        expect([key, t(key as MessageKey, values)]).toEqual([key, expected]);
      }
    }
  });

  it('falls back to English for a key a language lacks, and wraps every message when asked to', () => {
    const catalogue = new Catalogue({ en: { a: 'Notes' }, uk: {} }, true);
    expect(catalogue.format('uk', 'a' as never)).toBe('⟦Notes⟧');
  });
});

describe('choosing the language', () => {
  it('takes the user’s own choice over the browser’s', () => {
    expect(chooseLanguage('en-GB,en;q=0.9', 'uk')).toBe('uk');
  });

  it('takes the browser’s languages by weight, the first the catalogue has', () => {
    expect(chooseLanguage('uk-UA,uk;q=0.9,en;q=0.8')).toBe('uk');
    expect(chooseLanguage('de-DE, uk;q=0.5, en;q=0.7')).toBe('en');
    expect(chooseLanguage('fr;q=0.9, UK;q=0.95')).toBe('uk');
    expect(chooseLanguage('uk;q=0, en')).toBe('en');
  });

  it('answers English for no header, a setting it does not know, or nonsense', () => {
    expect(chooseLanguage(undefined)).toBe('en');
    expect(chooseLanguage('', 'xx')).toBe('en');
    expect(chooseLanguage(';;;,=,q=2')).toBe('en');
    expect(chooseLanguage(`${'x,'.repeat(10_000)}uk`)).toBe('en');
  });
});

describe('the catalogue files', () => {
  it('takes the languages from the folders of locales/, English first', () => {
    expect(LANGUAGES[0]).toBe('en');
    expect(LANGUAGES).toContain('uk');
  });

  it('refuses a key written in two files of one language', () => {
    const directory = new URL(`file://${mkdtempSync(join(tmpdir(), 'locales-'))}/`);
    mkdirSync(new URL('en/', directory));
    writeFileSync(new URL('en/a.json', directory), '{"x.y": "One"}');
    writeFileSync(new URL('en/b.json', directory), '{"x.y": "Two"}');
    expect(() => readMessages('en', directory)).toThrow(/x\.y is in another file/);
  });
});

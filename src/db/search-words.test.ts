import { describe, expect, it } from 'vitest';
import { searchWordsOf } from './migrations/0031_search_words.js';
import { MAX_SEARCH_WORDS_LENGTH, MAX_WORD_LENGTH, normalizedWords, searchTerms, searchWords, stemOf, tokenWord, wordToken } from './search-words.js';

// What the search stores of a note and looks for (db/search-words.ts). The databases' side, the
// same notes found on SQLite and PostgreSQL, is in features/notes/search-inflections.test.ts.

describe('normalizedWords', () => {
  it('folds case, joins words at apostrophes of every kind, and drops Latin accents and Cyrillic stress', () => {
    expect(normalizedWords("М'ЯСО мʼясо м’ясо м´ясо м‘ясо")).toEqual(['мясо', 'мясо', 'мясо', 'мясо', 'мясо']);
    expect(normalizedWords("Don't 'quoted' John’s")).toEqual(['dont', 'quoted', 'johns']);
    expect(normalizedWords('Café STRASSE Straße İstanbul ﬁne ＬＶＩＶ')).toEqual(['cafe', 'strasse', 'strasse', 'istanbul', 'fine', 'lviv']);
    expect(normalizedWords('молоко́ Київ їжак й ґанок')).toEqual(['молоко', 'київ', 'їжак', 'й', 'ґанок']);
    expect(normalizedWords('ΟΔΟΣ οδοσ')).toEqual(['οδος', 'οδος']);
  });

  it('splits at everything but letters, marks and digits, so no query syntax survives', () => {
    expect(normalizedWords('"a" NEAR(b) title:c * -d ^e !&|:* 1.5kg, e-mail@x.org')).toEqual(['a', 'near', 'b', 'title', 'c', 'd', 'e', '1', '5kg', 'e', 'mail', 'x', 'org']);
    expect(normalizedWords("' ʼ ’")).toEqual([]);
  });

  it('keeps a long word to its start', () => {
    expect(normalizedWords('ж'.repeat(100))).toEqual(['ж'.repeat(MAX_WORD_LENGTH)]);
    // Code points, not UTF-16 units: an astral letter is never cut in half.
    expect(Array.from(normalizedWords('𠀀'.repeat(70))[0]!)).toHaveLength(MAX_WORD_LENGTH);
  });
});

describe('stemOf', () => {
  // Pinned: an upgrade of @orama/stemmers (or a change of the rules) that stems these otherwise
  // leaves the notes' stored words behind the queries, so it needs a migration that fills
  // notes.search_words again (see search-words.ts).
  it.each([
    ['борщу', 'борщ'], ['борщі', 'борщ'], ['борщем', 'борщ'],
    ['збори', 'збір'], ['зборів', 'збір'], ['зборах', 'збір'], ['збору', 'збір'],
    ['львові', 'львів'], ['львова', 'львів'], ['львовом', 'львів'],
    ['школа', 'шкіл'], ['школі', 'шкіл'], ['помідорах', 'помідір'], ['молока', 'молік'],
    // Three-letter stems keep their vowel: вода's would otherwise be від, one of the commonest words.
    ['вода', 'вод'], ['водою', 'вод'], ['ночі', 'ноч'], ['кота', 'кот'],
    // A vowel the library leaves at the end goes.
    ['картоплею', 'картопл'], ['картопля', 'картопл'],
    ['радості', 'радіст'], ['радість', 'радіст'], ['києві', 'київ'], ['києва', 'київ'],
    ['мясо', 'мяс'], ['купити', 'куп'],
    // Not met (docs/features.md#search): the library stems купила and купити, цукру and цукор apart.
    ['купила', 'купил'], ['цукру', 'цукр'], ['цукор', 'цукір'],
    ['apples', 'appl'], ['apple', 'appl'], ['cooking', 'cook'], ['cooked', 'cook'], ['babies', 'babi'], ['baby', 'babi'], ['running', 'run'],
  ])('%s: %s', (word, stem) => {
    expect(stemOf(word)).toBe(stem);
  });

  it('gives none to words that are their own stem, short words, and words of other scripts or with digits', () => {
    for (const word of ['борщ', 'збір', 'львів', 'ніч', 'кіт', 'київ', 'cook', 'на', 'is', 'cafe5', 'οδος', '東京']) expect(stemOf(word), word).toBeNull();
  });

  it('stems a word alike however many words were stemmed before it (the library keeps a global regular expression)', () => {
    const once = ['молодостьо', 'радості', 'молодостьо', 'молодостьо'].map(stemOf);
    expect(new Set([once[0], once[2], once[3]]).size).toBe(1);
  });
});

describe('tokens', () => {
  it('are the letters a to p, two per byte, and give the word back', () => {
    for (const word of ['борщ', 'cafe', '東京', '𠀀x', '42']) {
      expect(wordToken(word)).toMatch(/^[a-p]+$/);
      expect(wordToken(word)).toHaveLength(2 * new TextEncoder().encode(word).length);
      expect(tokenWord(wordToken(word))).toBe(word);
    }
  });

  it('keep prefixes: a word that starts with another has a token that starts with its token, and no other', () => {
    expect(wordToken('борщу').startsWith(wordToken('борщ'))).toBe(true);
    expect(wordToken('борщ').startsWith(wordToken('борщу'))).toBe(false);
    // б and в share their first byte: a prefix of bytes is never taken for a prefix of letters.
    expect(wordToken('в').startsWith(wordToken('б'))).toBe(false);
    expect(wordToken('б').slice(0, 2)).toBe(wordToken('в').slice(0, 2));
  });
});

describe('searchWords', () => {
  it('holds each distinct word once, title first, each followed by its stem when it has one', () => {
    const stored = searchWords('Борщ у Львові', "М'ясо, cooking; борщ БОРЩ apples").split(' ').map(tokenWord);
    expect(stored).toEqual(['борщ', 'у', 'львові', 'львів', 'мясо', 'мяс', 'cooking', 'cook', 'apples', 'appl']);
    expect(searchWords('', '')).toBe('');
  });

  it('stops at MAX_SEARCH_WORDS_LENGTH characters, whatever the note', () => {
    const words = Array.from({ length: 5_000 }, (_, i) => `${'слово'.repeat(6)}${i}`).join(' ');
    const stored = searchWords('Заголовок', words);
    expect(stored.length).toBeLessThanOrEqual(MAX_SEARCH_WORDS_LENGTH);
    expect(tokenWord(stored.split(' ')[0]!)).toBe('заголовок');
  });
});

describe('searchTerms', () => {
  it('are the distinct words of the box, at most eight, each with its stem', () => {
    expect(searchTerms('Борщу борщу, ЗБОРАХ; Львів')).toEqual([
      { word: 'борщу', stem: 'борщ' },
      { word: 'зборах', stem: 'збір' },
      { word: 'львів', stem: null },
    ]);
    expect(searchTerms('a b c d e f g h i j')).toHaveLength(8);
  });
});

describe('the newest migration that fills notes.search_words (0031)', () => {
  // Notes keep the words their migration worked out: when the rules change, a new migration must
  // fill the column again with a copy of the new rules, and this test then names that copy.
  it('works out what searchWords does, so the stored words are what searches look for', () => {
    const samples: [string, string][] = [
      ['Борщ у Львові', "М'ясо, мʼясо, м’ясо; зборах і збори. Картоплею! Києві?"],
      ['Cooking APPLES', "Don't bake the babies' café crème; Straße İstanbul ﬁne."],
      ['东京 Ελληνικά 42', 'молоко́ молодостьо радості '.repeat(3) + 'ж'.repeat(80)],
      ['', ''],
      ['Великий', Array.from({ length: 5_000 }, (_, i) => `${'слово'.repeat(6)}${i} словами word${i}`).join(' ')],
    ];
    for (const [title, content] of samples) expect(searchWordsOf(title, content)).toBe(searchWords(title, content));
  });
});

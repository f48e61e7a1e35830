import { stemmer as englishStemmer } from '@orama/stemmers/english';
import { stemmer as ukrainianStemmer } from '@orama/stemmers/ukrainian';

// What the notes' full-text search stores of a note and looks for, worked out here in JavaScript
// and nowhere else, so that SQLite and PostgreSQL find the same notes for the same words (see
// docs/features.md#search). A note's title and content become `notes.search_words` (migration
// 0031) on every write: its distinct words, and beside each word its stem. SQLite's FTS5 table and
// PostgreSQL's tsvector index that column only. A search looks for each of its words as the start
// of a stored word or stem, or for its stem as one of them.
//
// The words are stored encoded (wordToken): letters a to p, two for each byte of the word's UTF-8.
// Each database then sees plain ASCII words that its tokenizer keeps whole and unchanged, whatever
// its Unicode tables, its locale or its version (PostgreSQL's parser in C.UTF-8 split 6,160 of
// the letters and digits that FTS5 keeps, and lower-cased by the server's locale). The encoding
// keeps prefixes: a word that starts with another has a token that starts with the other's.
//
// The rules below decide what is stored. Change them (or upgrade @orama/stemmers, pinned to one
// version for this reason) and existing notes keep the words of the old rules: a new migration must
// fill `notes.search_words` again with a frozen copy of the new rules, as 0031 did (searchWordsOf;
// search-words.test.ts checks that the newest copy agrees with this file).

/** The longest word kept, in code points: a longer one is kept to its start (the search box's words too). */
export const MAX_WORD_LENGTH = 64;
/** At most this many characters of tokens per note (words of the title first): far below PostgreSQL's 1 MB for a tsvector. */
export const MAX_SEARCH_WORDS_LENGTH = 400_000;
/** The words of a search box looked for; more are ignored. */
export const MAX_QUERY_WORDS = 8;

// Apostrophes, as Ukrainian is typed with any of them (ʼ U+02BC is the standard one, ’ and ' the
// usual ones): inside a word they join it (м'ясо, мʼясо and м’ясо are one word, мясо; don't is
// dont), elsewhere they separate words like any punctuation.
const APOSTROPHE = "'ʼ’‘`ʹ";
const INNER_APOSTROPHE = new RegExp(`(?<=[\\p{L}\\p{M}\\p{N}])[${APOSTROPHE}]+(?=[\\p{L}\\p{N}])`, 'gu');
const OTHER_APOSTROPHE = new RegExp(`[${APOSTROPHE}]`, 'gu');
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
// Accents on Latin letters are dropped (café is cafe, ß is ss by case folding), as are stress marks
// on Cyrillic vowels (молоко́); й and ї stay letters of their own.
const LATIN_MARKS = /(\p{Script=Latin})\p{M}+/gu;
const CYRILLIC_STRESS = /(\p{Script=Cyrillic})[\u0300\u0301]+/gu;
const ENGLISH_WORD = /^[a-z]+$/;
const CYRILLIC_WORD = /^\p{Script=Cyrillic}+$/u;
// A stem's last vowel before one consonant (or ст), with a soft sign or not, ends the stem: Ukrainian
// turns о and е there into і when the syllable closes (Львова, Львів; зборах, збір; радості,
// радість), and є into ї (Києва, Київ). The stem keeps і (ї) there, so that both forms share it.
// Stems of four letters or more only: of three, вода's вод would become від, one of the commonest
// words, and every note would match (so кота and кіт, ночі and ніч do not meet).
const CLOSED_SYLLABLE = /(?<=^\p{L}{2,})([оеієї])((?:ст|[бвгґджзклмнпрстфхцчшщ])ь?)$/u;
const closeSyllable = (stem: string) => stem.replace(CLOSED_SYLLABLE, (_match, vowel: string, end: string) => (vowel === 'є' || vowel === 'ї' ? 'ї' : 'і') + end);
// A vowel the library leaves at a stem's end is an ending it took only half of (картоплею gives
// картопле, where картопля gives картопл): dropped while the stem keeps three letters.
const TRAILING_VOWELS = /(?<=^\p{L}{3,})[аеєиіїоуюяь]+$/u;
/** Words shorter than this are not stemmed, and no stem is shorter. */
const MIN_STEM_LENGTH = 3;

/**
 * The words of a text as the search compares them: NFKC, fully case-folded (lower, upper, lower:
 * ß is ss, final and medial sigma are one), apostrophes inside words dropped, accents of Latin
 * letters and Cyrillic stress marks dropped, then runs of letters, marks and digits, each kept to
 * MAX_WORD_LENGTH code points. Everything else separates words, so nothing typed is query syntax.
 */
export function normalizedWords(text: string): string[] {
  const folded = text.replaceAll('´', "'").normalize('NFKC').toLowerCase().toUpperCase().toLowerCase().replace(INNER_APOSTROPHE, '').replace(OTHER_APOSTROPHE, ' ');
  // Each distinct word once: a long note repeats its words, and this is most of the work.
  const plainOf = new Map<string, string>();
  return (folded.match(WORD) ?? []).map((word) => {
    let plain = plainOf.get(word);
    if (plain === undefined) {
      const points = Array.from(word.normalize('NFD').replace(LATIN_MARKS, '$1').replace(CYRILLIC_STRESS, '$1').normalize('NFC'));
      plain = points.length > MAX_WORD_LENGTH ? points.slice(0, MAX_WORD_LENGTH).join('') : points.join('');
      plainOf.set(word, plain);
    }
    return plain;
  });
}

/**
 * The library's Ukrainian stemmer keeps a regular expression with the global flag in its module
 * and calls test() on it, so one call's `lastIndex` carried into the next and the same word got
 * two stems by turns (молодостьо: молод, then молодост). A word on which that test fails puts
 * `lastIndex` back to 0: asked first, it makes every call start alike.
 */
function stemUkrainian(word: string): string {
  ukrainianStemmer('аб');
  return ukrainianStemmer(word);
}

/**
 * A normalized word's stem, when it has one that differs from the word: English words (a to z
 * only) by Porter's algorithm, Cyrillic ones by @orama/stemmers' Ukrainian stemmer, without a
 * vowel left at the end (TRAILING_VOWELS), and then the closed syllable's і (CLOSED_SYLLABLE). Other words, words with digits, and stems shorter than
 * three letters (Київ's ки) have none.
 */
export function stemOf(word: string): string | null {
  if (word.length < MIN_STEM_LENGTH) return null;
  let stem: string;
  if (ENGLISH_WORD.test(word)) stem = englishStemmer(word);
  else if (CYRILLIC_WORD.test(word)) stem = closeSyllable(stemUkrainian(word).replace(TRAILING_VOWELS, ''));
  else return null;
  return stem.length >= MIN_STEM_LENGTH && stem !== word ? stem : null;
}

const NIBBLE = 'abcdefghijklmnop';
const utf8 = new TextEncoder();

/** A word as the databases store it: two letters a to p for each byte of its UTF-8 (d0 b1 is "nakb"). */
export function wordToken(word: string): string {
  let token = '';
  for (const byte of utf8.encode(word)) token += NIBBLE[byte >> 4]! + NIBBLE[byte & 15]!;
  return token;
}

/** The word a token stands for (for reading `notes.search_words` by hand, and for tests). */
export function tokenWord(token: string): string {
  const bytes = new Uint8Array(token.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = NIBBLE.indexOf(token[2 * i]!) * 16 + NIBBLE.indexOf(token[2 * i + 1]!);
  return new TextDecoder().decode(bytes);
}

/**
 * `notes.search_words` for a note: the tokens of its distinct words, title first, each followed by
 * its stem's when it has one, separated by spaces; at most MAX_SEARCH_WORDS_LENGTH characters.
 */
export function searchWords(title: string, content: string): string {
  const tokens = new Set<string>();
  let length = 0;
  const add = (word: string) => {
    const token = wordToken(word);
    if (tokens.has(token) || length + token.length + 1 > MAX_SEARCH_WORDS_LENGTH) return;
    tokens.add(token);
    length += token.length + 1;
  };
  for (const word of new Set([...normalizedWords(title), ...normalizedWords(content)])) {
    add(word);
    const stem = stemOf(word);
    if (stem !== null) add(stem);
  }
  return [...tokens].join(' ');
}

/** A word of a search: notes match when a stored word starts with `word`, or a stored stem is `stem`. */
export interface SearchTerm {
  word: string;
  stem: string | null;
}

/** The distinct words of a search box (at most MAX_QUERY_WORDS), each with its stem. */
export function searchTerms(query: string): SearchTerm[] {
  return [...new Set(normalizedWords(query))].slice(0, MAX_QUERY_WORDS).map((word) => ({ word, stem: stemOf(word) }));
}

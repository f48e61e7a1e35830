import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownName } from '../src/features/accounts/account-views.js';
import { LANGUAGES } from '../src/platform/i18n/index.js';
import { readMessages } from '../src/platform/i18n/catalogue.js';
import { TIME_ZONES } from '../src/platform/time-zones.js';
import { EVERY_PAGE_PEOPLE, type EveryPage, everyPage, getEveryPage, readableText, type UserWords } from './index.js';

// Every GET page the app has (test/every-page.ts), as a user whose language is Ukrainian, with
// everything they wrote in Ukrainian too: an English word of the catalogue on such a page is a word
// the page glued into a Ukrainian message ("Видалити item?"). And since a name cannot take a case
// ending, no name may follow a preposition directly ("у школа"): the message puts a noun before it
// that takes the case ("з тегом «школа»").

const WORDS: UserWords = {
  group: 'Родина',
  joinedGroup: 'Сусіди',
  notebook: 'Домашні справи',
  notebookDescription: 'Усе для дому',
  tag: 'школа',
  note: 'Борщ',
  noteContent: 'Буряк і кріп.',
  reminder: 'Купити буряк',
  todo: 'Прибирання',
  task: 'Підмести',
  shopping: 'Базар',
  store: 'Привоз',
  item: 'Буряк',
  unit: 'кг',
  chat: 'Вечеря о шостій?',
  token: 'ноутбук',
};

/** Prepositions that want their noun in a case other than the nominative. */
const PREPOSITIONS = ['у', 'в', 'до', 'з', 'із', 'зі', 'від', 'для', 'на', 'про', 'за', 'над', 'під', 'між', 'через', 'по', 'при', 'без', 'біля', 'серед', 'щодо', 'після', 'перед', 'крім', 'замість', 'проти'];

/** The text of a message and its plural and select branches, without its values. */
function literals(elements: MessageFormatElement[], texts: string[] = []): string[] {
  for (const element of elements) {
    if (element.type === TYPE.literal) texts.push(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) literals(option.value, texts);
    }
  }
  return texts;
}

/**
 * Code in a sentence, the same in every language: JSON (`{"error": {"code"}}`), a token holding a
 * path, a query, a key or markup (`?ref=note:12`, `/api/notes/`, `#rrggbb`, `ALLOWED_HOSTS`,
 * `openapi.json`), an HTTP header's name (`If-None-Match`).
 */
const CODE = /\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|\S*[=/{}"`<>_*#%@\\[\]|]\S*|\S*\p{L}[.:]\p{L}\S*|\b\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)+\b/gu;

/** The words in Latin letters of `text`, code left out, lower-cased. */
function latinWords(text: string): string[] {
  return (text.replace(CODE, ' ').match(/\p{Script=Latin}+(?:['’]\p{Script=Latin}+)*/gu) ?? []).map((word) => word.toLowerCase());
}

function catalogueWords(language: string): Set<string> {
  return new Set(Object.values(readMessages(language)).flatMap((message) => literals(parse(message)).flatMap(latinWords)));
}

/**
 * English's words that Ukrainian's messages never use themselves: those they do are names
 * (groupnotes, Markdown, Google Authenticator), terms (API, JSON, UTC) and keys (Enter), which a
 * Ukrainian page may show as they are.
 */
const ukrainianWords = catalogueWords('uk');
const ENGLISH = new Set([...catalogueWords('en')].filter((word) => !ukrainianWords.has(word)));

function englishWordsIn(text: string): string[] {
  return latinWords(text).filter((word) => ENGLISH.has(word));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NAME_AFTER_PREPOSITION = new RegExp(`(?<![\\p{L}’'-])(?:${PREPOSITIONS.join('|')})\\s+[«“„"]?(?:${Object.values(WORDS).map(escape).join('|')})(?!\\p{L})`, 'giu');

let pages: EveryPage;
/** Each HTML page's path and body. */
let html: { path: string; body: string }[];

beforeAll(async () => {
  pages = await everyPage(WORDS, 'uk');
  html = (await getEveryPage(pages))
    .filter(({ response }) => String(response.headers['content-type']).startsWith('text/html'))
    .map(({ path, response }) => ({ path, body: response.body }));
});

afterAll(() => pages?.t.close());

describe('every page in Ukrainian', () => {
  it('knows the English catalogue’s words from Ukrainian’s, and from code', () => {
    expect(englishWordsIn('Видалити item? Читати note можуть 3 особи · groupnotes API, ?ref=note:12, If-None-Match')).toEqual(['item', 'note']);
  });

  it('shows no word of the English catalogue on any page', async () => {
    // Names the pages show as they are: people's, zones', and each language's in itself.
    const userContent = [...EVERY_PAGE_PEOPLE, 'lightMyRequest', ...TIME_ZONES, ...LANGUAGES.map(ownName)].sort((a, b) => b.length - a.length);
    const english: { path: string; text: string[] }[] = [];
    const notUkrainian: string[] = [];
    for (const { path, body } of html) {
      if (!body.includes('<html lang="uk"')) notUkrainian.push(path);
      const text = readableText(body)
        .map((piece) => userContent.reduce((rest, name) => rest.split(name).join(' '), piece).trim())
        .filter((piece) => englishWordsIn(piece).length > 0);
      if (text.length > 0) english.push({ path, text });
    }
    expect(notUkrainian).toEqual([]);
    expect(english).toEqual([]);
  });

  it('puts no name straight after a preposition, where Ukrainian would want a case ending', async () => {
    const glued: { path: string; text: string[] }[] = [];
    for (const { path, body } of html) {
      const text = [...readableText(body).join(' ').replace(/\s+/g, ' ').matchAll(NAME_AFTER_PREPOSITION)].map((match) => match[0]);
      if (text.length > 0) glued.push({ path, text });
    }
    expect(glued).toEqual([]);
  });
});

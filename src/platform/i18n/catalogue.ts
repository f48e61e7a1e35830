import { readdirSync, readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';
import type { MessageKey } from './keys.js';

// The interface's words, one ICU MessageFormat catalogue per language in locales/<language>/, a
// JSON file per area of the interface. English is the source: its keys are the type of every key
// (keys.ts). The languages are the folders there, so a contributor adds a language with a folder
// of JSON files and no code.

export type { MessageKey } from './keys.js';
/** The parser's TYPE.literal and TYPE.argument (@formatjs/icu-messageformat-parser, which intl-messageformat does not re-export). */
const LITERAL = 0;
const ARGUMENT = 1;

/**
 * A message of text and plain `{name}` arguments (`Pin {title}`), put together without
 * intl-messageformat when every value it takes is a string: a list page formats one per note.
 * A number or a date still goes through `full`, which writes it the language's way.
 */
interface Template {
  parts: readonly (string | { name: string })[];
  full: IntlMessageFormat;
}

export type MessageValues = Record<string, string | number | Date>;
/** Counts below this have their message kept once formatted (Catalogue.formatCount). */
const COUNTS_KEPT = 1_000;
export type Language = string;

export interface Translator {
  readonly language: Language;
  t(key: MessageKey, values?: MessageValues): string;
  /** Whether `text` is a key of the catalogue (a form error may be a key or, from a library, text). */
  has(text: string): text is MessageKey;
}

export type Messages = Readonly<Record<string, string>>;

const LOCALES = new URL('../../../locales/', import.meta.url);

/** The languages there are catalogues for, English first. */
export function languagesIn(directory: URL = LOCALES): Language[] {
  const found = readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^[a-z]{2,3}$/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  if (!found.includes('en')) throw new Error('locales/en/ is missing: English is the source catalogue');
  return ['en', ...found.filter((language) => language !== 'en')];
}

export const LANGUAGES: readonly Language[] = languagesIn();

/** One language's messages, its files merged; a key in two files is an error, found at start. */
export function readMessages(language: Language, directory: URL = LOCALES): Messages {
  const folder = new URL(`${language}/`, directory);
  const messages: Record<string, string> = {};
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json')).sort()) {
    const area = JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as Record<string, string>;
    for (const [key, text] of Object.entries(area)) {
      if (key in messages) throw new Error(`locales/${language}/${file}: ${key} is in another file as well`);
      messages[key] = text;
    }
  }
  return messages;
}

export class Catalogue {
  /**
   * Compiled once each, bounded by languages x keys (both fixed at start): a message that takes
   * no values is kept as its text, which every page then costs a Map lookup, not a format.
   */
  private readonly compiled = new Map<Language, Map<MessageKey, IntlMessageFormat | Template | string>>();
  private readonly translators = new Map<Language, Translator>();
  /** formatCount's texts, by message (each compiled once) and count: bounded by keys x COUNTS_KEPT. */
  private readonly counts = new Map<IntlMessageFormat, string[]>();

  /**
   * `markers` wraps every message in ⟦ ⟧: a test renders each page so and fails on any text
   * outside the markers, which is text that does not come from the catalogue.
   */
  constructor(private readonly messages: Readonly<Record<Language, Messages>>, private readonly markers = false) {}

  static load(options: { markers?: boolean; directory?: URL } = {}): Catalogue {
    const messages = Object.fromEntries(languagesIn(options.directory).map((language) => [language, readMessages(language, options.directory)]));
    return new Catalogue(messages, options.markers);
  }

  format(language: Language, key: MessageKey, values?: MessageValues): string {
    const message = this.compile(language, key);
    if (typeof message === 'string') return message;
    if (message instanceof IntlMessageFormat) return this.marked(this.formatCount(message, values) ?? String(message.format(values)));
    let text = '';
    for (const part of message.parts) {
      if (typeof part === 'string') {
        text += part;
        continue;
      }
      const value = values?.[part.name];
      if (typeof value !== 'string') return this.marked(String(message.full.format(values)));
      text += value;
    }
    return this.marked(text);
  }

  /**
   * A message of one whole `count` below COUNTS_KEPT (`{count, plural, ...}`), formatted once per
   * number: every page's navigation says its unread count in words, and intl-messageformat looks
   * up its plural rules and number format by JSON keys on every call (3% of a worker's time in
   * the crowd bench). Undefined for any other values.
   */
  private formatCount(message: IntlMessageFormat, values: MessageValues | undefined): string | undefined {
    const count = values?.count;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count >= COUNTS_KEPT) return undefined;
    for (const name in values) if (name !== 'count') return undefined;
    let texts = this.counts.get(message);
    if (!texts) this.counts.set(message, (texts = []));
    return (texts[count] ??= String(message.format({ count })));
  }

  private marked(text: string): string {
    // Only plain text comes out: the messages hold no rich-text tags.
    return this.markers ? `⟦${text}⟧` : text;
  }

  has(text: string): text is MessageKey {
    return Object.hasOwn(this.messages.en!, text);
  }

  /** The language's translator: one object per language, so that what is worked out from it can be kept by it. */
  translator(language: Language): Translator {
    let translator = this.translators.get(language);
    if (!translator) {
      translator = { language, t: (key, values) => this.format(language, key, values), has: (text) => this.has(text) };
      this.translators.set(language, translator);
    }
    return translator;
  }

  private compile(language: Language, key: MessageKey): IntlMessageFormat | Template | string {
    // A map per language: a page formats hundreds of messages, and a key made of both (a new
    // string each call) cost more than the formatting it looked up.
    let messages = this.compiled.get(language);
    if (!messages) this.compiled.set(language, (messages = new Map()));
    let message = messages.get(key);
    if (!message) {
      // A key the language lacks falls back to English (a test keeps the files in step).
      const source = this.messages[language]?.[key] ?? this.messages.en?.[key];
      if (source === undefined) throw new Error(`No message ${key}`);
      const compiled = new IntlMessageFormat(source, language);
      const elements = compiled.getAst();
      if (elements.every((element) => element.type === LITERAL)) message = this.marked(String(compiled.format()));
      else if (elements.every((element) => element.type === LITERAL || element.type === ARGUMENT)) {
        message = { parts: elements.map((element) => (element.type === LITERAL ? element.value : { name: element.value })), full: compiled };
      } else message = compiled;
      messages.set(key, message);
    }
    return message;
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';
import type { MessageKey } from './keys.js';

// The interface's words, one ICU MessageFormat catalogue per language in locales/<language>/, a
// JSON file per area of the interface. English is the source: its keys are the type of every key
// (keys.ts). The languages are the folders there, so a contributor adds a language with a folder
// of JSON files and no code.

export type { MessageKey } from './keys.js';
export type MessageValues = Record<string, string | number | Date>;
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
  /** Compiled once each: bounded by languages x keys, both fixed at start. */
  private readonly compiled = new Map<string, IntlMessageFormat>();

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
    const text = this.compile(language, key).format(values);
    // Only plain text comes out: the messages hold no rich-text tags.
    return this.markers ? `⟦${String(text)}⟧` : String(text);
  }

  has(text: string): text is MessageKey {
    return Object.hasOwn(this.messages.en!, text);
  }

  translator(language: Language): Translator {
    return { language, t: (key, values) => this.format(language, key, values), has: (text) => this.has(text) };
  }

  private compile(language: Language, key: MessageKey): IntlMessageFormat {
    const id = `${language}\0${key}`;
    let message = this.compiled.get(id);
    if (!message) {
      // A key the language lacks falls back to English (a test keeps the files in step).
      const source = this.messages[language]?.[key] ?? this.messages.en?.[key];
      if (source === undefined) throw new Error(`No message ${key}`);
      message = new IntlMessageFormat(source, language);
      this.compiled.set(id, message);
    }
    return message;
  }
}

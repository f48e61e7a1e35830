import { readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';
import type english from '../../../locales/en.json';

// The interface's words, one ICU MessageFormat catalogue per language in locales/<language>.json.
// English is the source: its keys are the type of every key, so a typo is a compile error, and a
// language file a contributor adds needs no code beyond its code in LANGUAGES.

export type MessageKey = keyof typeof english;
export type MessageValues = Record<string, string | number | Date>;

export const LANGUAGES = ['en', 'uk'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface Translator {
  readonly language: Language;
  t(key: MessageKey, values?: MessageValues): string;
}

export type Messages = Readonly<Record<string, string>>;

const LOCALES = new URL('../../../locales/', import.meta.url);

export function readMessages(language: Language, directory: URL = LOCALES): Messages {
  return JSON.parse(readFileSync(new URL(`${language}.json`, directory), 'utf8')) as Messages;
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
    const messages = Object.fromEntries(LANGUAGES.map((language) => [language, readMessages(language, options.directory)]));
    return new Catalogue(messages as Record<Language, Messages>, options.markers);
  }

  format(language: Language, key: MessageKey, values?: MessageValues): string {
    const text = this.compile(language, key).format(values);
    // Only plain text comes out: the messages hold no rich-text tags.
    return this.markers ? `⟦${String(text)}⟧` : String(text);
  }

  translator(language: Language): Translator {
    return { language, t: (key, values) => this.format(language, key, values) };
  }

  private compile(language: Language, key: MessageKey): IntlMessageFormat {
    const id = `${language}\0${key}`;
    let message = this.compiled.get(id);
    if (!message) {
      // A key the language lacks falls back to English (a test keeps the files in step).
      const source = this.messages[language][key] ?? this.messages.en[key];
      if (source === undefined) throw new Error(`No message ${key}`);
      message = new IntlMessageFormat(source, language);
      this.compiled.set(id, message);
    }
    return message;
  }
}

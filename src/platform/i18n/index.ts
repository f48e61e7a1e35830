import { Catalogue, type Language, type Translator } from './catalogue.js';
import { chooseLanguage } from './negotiate.js';

export { chooseLanguage } from './negotiate.js';
export { LANGUAGES, type Language, type MessageKey, type MessageValues, type Translator } from './catalogue.js';

/** The catalogues of locales/, read once at start (a few kilobytes each). */
const catalogue = Catalogue.load();

export function translator(language: Language): Translator {
  return catalogue.translator(language);
}

/** The translator for a request: the user's setting, else the browser's languages, else English. */
export function translatorFor(acceptLanguage: string | undefined, setting?: string | null): Translator {
  return catalogue.translator(chooseLanguage(acceptLanguage, setting));
}

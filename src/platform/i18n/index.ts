import { Catalogue, type Language, type Translator } from './catalogue.js';
import { chooseLanguage } from './negotiate.js';
import { translateOutsidePagesWith } from './message.js';

export { chooseLanguage } from './negotiate.js';
export { LANGUAGES, type Language, type MessageKey, type MessageValues, type Translator } from './catalogue.js';
export { msg, msgWith } from './keys.js';

/** The catalogues of locales/, read once at start (a few kilobytes each). */
let catalogue = Catalogue.load();
translateOutsidePagesWith(catalogue.translator('en'));

export function translator(language: Language): Translator {
  return catalogue.translator(language);
}

/** The translator for a request: the user's setting, else the browser's languages, else English. */
export function translatorFor(acceptLanguage: string | undefined, setting?: string | null): Translator {
  return catalogue.translator(chooseLanguage(acceptLanguage, setting));
}

/** What a request says about its language: its header, and the user's own choice once logged in. */
export interface LanguageSource {
  headers: { 'accept-language'?: string | undefined };
  user?: { language?: string } | null;
}

/** The translator for a request, for a page, a flash message, a form's errors or an API error. */
export function requestTranslator(request: LanguageSource): Translator {
  return translatorFor(request.headers['accept-language'], request.user?.language);
}

/**
 * For tests only: from now on every message comes out wrapped in ⟦ ⟧, so that a rendered page
 * shows which of its text is not from the catalogue (test/language-markers.ts).
 */
export function wrapMessagesForTesting(): void {
  catalogue = Catalogue.load({ markers: true });
  translateOutsidePagesWith(catalogue.translator('en'));
}

export { type Message, pageLanguage, renderingIn, say, translate } from './message.js';

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

/**
 * The language the last signed-in user's pages spoke, kept by the browser when they sign out (or
 * stand at the 2FA code step), so that the pages before the next sign-in speak it too. Django's name.
 */
export const LANGUAGE_COOKIE = 'django_language';

/**
 * What a request says about its language: its header, the user's own choice once logged in, and
 * before that the language remembered from the last sign-out (LANGUAGE_COOKIE).
 */
export interface LanguageSource {
  headers: { 'accept-language'?: string | undefined };
  user?: { language?: string } | null;
  cookies?: { [name: string]: string | undefined };
}

/** The translator for a request, for a page, a flash message, a form's errors or an API error. */
export function requestTranslator(request: LanguageSource): Translator {
  // A signed-in user's own setting ('' is the browser's) decides for them: a cookie left by someone else does not.
  const setting = request.user ? request.user.language : request.cookies?.[LANGUAGE_COOKIE];
  return translatorFor(request.headers['accept-language'], setting);
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

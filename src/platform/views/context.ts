import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../chain/authentication.js';
import type { FlashMessage } from '../chain/messages.js';
import { requestTranslator, type Language, type Translator } from '../i18n/index.js';
import type { NavigationEntry } from '../navigation.js';
import { pathOf } from '../url.js';

/** What every page needs to know about the request it answers. */
export interface ViewContext {
  user: AuthUser | null;
  /** The navigation's links with their counts, read with the caller's session (none without one). */
  navigation: readonly NavigationEntry[];
  /** The path, for marking the current section in the navigation. */
  path: string;
  csrfToken(): string;
  takeMessages(): readonly FlashMessage[];
  /** The language the page speaks (`<html lang>`), and its words from the catalogue. */
  language: Language;
  t: Translator['t'];
}

export function viewContext(request: FastifyRequest, translator = requestTranslator(request)): ViewContext {
  // One masked token per page, like Django's {% csrf_token %}: a page with a hundred
  // forms (a list with a toggle per item) must not mask the secret a hundred times.
  let token: string | undefined;
  return {
    language: translator.language,
    t: translator.t,
    user: request.user,
    navigation: request.session?.navigation ?? [],
    path: pathOf(request.url),
    csrfToken: () => (token ??= request.csrfToken()),
    takeMessages: () => request.takeMessages(),
  };
}

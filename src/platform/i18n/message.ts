import type { MessageKey, MessageValues, Translator } from './catalogue.js';

/**
 * Something to tell a person, named before the language it is shown in is known: a form's error,
 * a flash message carried over a redirect. A catalogue key with its values, or a plain string: a
 * key, or (from a library) text shown as it is.
 */
export type Message = string | { key: MessageKey; values?: MessageValues };

export function translate(t: Translator, message: Message): string {
  const key = typeof message === 'string' ? message : message.key;
  if (!t.has(key)) return key;
  return t.t(key, typeof message === 'string' ? undefined : message.values);
}

/** The translator of the page being rendered: pages render synchronously, one at a time. */
let rendering: Translator | null = null;
/** English, for a fragment rendered outside a page (a live list's row). */
let outside: Translator | null = null;

/** The language of the page being rendered (English outside a page): for dates and numbers deep in it. */
export function pageLanguage(): string {
  return (rendering ?? outside)?.language ?? 'en';
}

export function translateOutsidePagesWith(t: Translator): void {
  outside = t;
}

/** Renders with `t` as the language of every `say` in the page. */
export function renderingIn<T>(t: Translator, render: () => T): T {
  const outer = rendering;
  rendering = t;
  try {
    return render();
  } finally {
    rendering = outer;
  }
}

/**
 * A message in the language of the page being rendered, for a component deep in a page that is
 * handed messages rather than the page's context (a field's errors).
 */
export function say(message: Message): string {
  const t = rendering ?? outside;
  if (!t) throw new Error('No catalogue loaded');
  return translate(t, message);
}

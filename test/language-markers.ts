import { expect } from 'vitest';
import { wrapMessagesForTesting } from '../src/platform/i18n/index.js';

// The check that no text a person reads lives outside the catalogue. A test file calls
// useMarkedMessages() before it builds its app: every catalogue message then comes out as
// ⟦message⟧. It renders its pages and expectAllWrapped() fails on any text left outside ⟦ ⟧:
// words written into a view, a schema or a handler instead of the catalogue. User content is
// either wrapped by the test (a note titled "⟦Soup⟧") or named in `userContent`.

export function useMarkedMessages(): void {
  wrapMessagesForTesting();
}

/** Attributes whose values people read (or hear): checked like text. */
const READ_ATTRIBUTES = /\s(?:aria-label|placeholder|title|alt|data-confirm-label)="([^"]*)"/g;
const BUTTON_VALUE = /<input\b[^>]*\btype="(?:submit|button|reset)"[^>]*>/g;

function decode(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&');
}

/** What is left of a text once every ⟦…⟧ (nested too) and the allowed strings are taken out. */
function outsideMarkers(text: string, allowed: readonly string[]): string {
  let rest = text;
  for (let previous = ''; previous !== rest; ) {
    previous = rest;
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
  }
  for (const word of allowed) rest = rest.split(word).join(' ');
  return rest;
}

/**
 * Every piece of text of `html` a person reads: read attributes, then button values, then the
 * text between tags in the page's order.
 */
export function readableText(html: string): string[] {
  // Scripts and styles are not read; a <time> is a date Intl wrote in the page's language; code
  // (a path, a header, a JSON schema, a key to type) is the same in every language.
  const page = html
    .replace(/<script\b[\s\S]*?<\/script>/g, '')
    .replace(/<style\b[\s\S]*?<\/style>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(time|code|pre|kbd|samp)\b[\s\S]*?<\/\1>/g, '')
    // Text a page declares to be in another language on purpose (the API's operation summaries,
    // English as in openapi.json): <p lang="en">, with no element of its own kind inside.
    .replace(/<(p|span)\b[^>]*\blang="[^"]*"[^>]*>[\s\S]*?<\/\1>/g, '');
  const pieces: string[] = [];
  for (const match of page.matchAll(READ_ATTRIBUTES)) pieces.push(decode(match[1]!));
  for (const match of page.matchAll(BUTTON_VALUE)) {
    const value = /\bvalue="([^"]*)"/.exec(match[0]);
    if (value) pieces.push(decode(value[1]!));
  }
  // Text between tags; <title> and every element's text alike.
  for (const match of page.matchAll(/>([^<]+)</g)) pieces.push(decode(match[1]!));
  return pieces;
}

/** Every piece of readable text of `html` that holds a letter outside the markers. */
export function unwrappedText(html: string, userContent: readonly string[] = []): string[] {
  const allowed = ['groupnotes', ...userContent].sort((a, b) => b.length - a.length);
  return readableText(html).filter((piece) => /\p{L}/u.test(outsideMarkers(piece, allowed))).map((piece) => piece.trim());
}

/** Fails, naming the page and the text, on any readable text outside the catalogue's markers. */
export function expectAllWrapped(path: string, html: string, userContent: readonly string[] = []): void {
  expect({ path, unwrapped: unwrappedText(html, userContent) }).toEqual({ path, unwrapped: [] });
}

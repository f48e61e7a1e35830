export const EXCERPT_LENGTH = 160;
/** Only the start of a note can reach the preview; long notes are not scanned to the end. */
const SOURCE_CHARS = 1000;

/**
 * A plain-text preview of Markdown for list rows: markup characters and link targets dropped,
 * whitespace collapsed. Stored beside the content when a note is written, escaped by JSX when shown.
 */
export function plainExcerpt(source: string, length = EXCERPT_LENGTH): string {
  const text = source
    .slice(0, SOURCE_CHARS)
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    // Task list items keep their state as a character: "☐ buy milk", "☑ call the vet".
    .replace(/^(\s{0,3}[-*+]\s+)\[([ xX])\]\s+/gm, (_match, bullet: string, mark: string) => `${bullet}${mark === ' ' ? '☐' : '☑'} `)
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/[*_~`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text;
}

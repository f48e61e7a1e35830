export const EXCERPT_LENGTH = 160;
/** Only the start of a note can reach the preview; long notes are not scanned to the end. */
const SOURCE_CHARS = 1000;

/** Paragraphs a preview shows at most, one a line. */
const MAX_PARAGRAPHS = 3;

/** One paragraph of Markdown as plain text: markup characters and link targets dropped, whitespace collapsed. */
function plainParagraph(source: string): string {
  return source
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    // Task list items keep their state as a character: "☐ buy milk", "☑ call the vet".
    .replace(/^(\s{0,3}[-*+]\s+)\[([ xX])\]\s+/gm, (_match, bullet: string, mark: string) => `${bullet}${mark === ' ' ? '☐' : '☑'} `)
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/[*_~`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A plain-text preview of Markdown for list rows: its first paragraphs, one a line (a heading
 * and the text under it do not run together, and each line takes its own direction: an Arabic
 * paragraph reads right to left), markup dropped. Stored beside the content when a note is
 * written, escaped by JSX when shown (CSS keeps the line breaks).
 */
export function plainExcerpt(source: string, length = EXCERPT_LENGTH): string {
  const text = source
    .slice(0, SOURCE_CHARS)
    .split(/\r?\n[ \t]*\r?\n/)
    .map(plainParagraph)
    .filter((paragraph) => paragraph !== '')
    .slice(0, MAX_PARAGRAPHS)
    .join('\n');
  return text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text;
}

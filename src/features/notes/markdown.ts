import MarkdownIt from 'markdown-it';

const SAFE_LINK = /^(https?:|mailto:)/i;

/**
 * Markdown for note content. Raw HTML is off (a `<script>` or `<img onerror>` in a note is
 * shown as text), and link and image targets are limited to http, https and mailto, so
 * `javascript:`, `data:` and `vbscript:` URLs never become links. Relative links are refused
 * too: a note may be read by a group, so it should not aim actions at this site.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
markdown.validateLink = (url) => SAFE_LINK.test(url.trim());

const defaultLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  // Links written by other users: no window.opener, no referrer, no search-engine credit.
  tokens[index]!.attrSet('rel', 'noopener noreferrer nofollow');
  return defaultLinkOpen(tokens, index, options, env, self);
};

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}

/** A plain-text preview of Markdown, for list rows (escaped by JSX like any other text). */
export function plainExcerpt(source: string, length = 160): string {
  const text = source
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/[*_~`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text;
}

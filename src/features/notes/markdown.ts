import MarkdownIt from 'markdown-it';
import { taskLists } from './task-lists.js';

const SAFE_LINK = /^(https?:|mailto:)/i;

/**
 * Markdown for note content. Raw HTML is off (a `<script>` or `<img onerror>` in a note is
 * shown as text), and link and image targets are limited to http, https and mailto, so
 * `javascript:`, `data:` and `vbscript:` URLs never become links. Relative links are refused
 * too: a note may be read by a group, so it should not aim actions at this site.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
markdown.validateLink = (url) => SAFE_LINK.test(url.trim());
// `- [ ] task` and `- [x] done`: read-only checkboxes (task-lists.ts).
markdown.use(taskLists);

const defaultLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  // Links written by other users: no window.opener, no referrer, no search-engine credit.
  tokens[index]!.attrSet('rel', 'noopener noreferrer nofollow');
  return defaultLinkOpen(tokens, index, options, env, self);
};

/**
 * An image is shown as a link to it, not loaded by the page: a group note is read by the other
 * members, and an image on another site would tell its owner who read the note and when (the
 * CSP's img-src allows only this site anyway). The reader may follow the link deliberately.
 */
markdown.renderer.rules.image = (tokens, index, options, env, self) => {
  const token = tokens[index]!;
  const { escapeHtml } = markdown.utils;
  const alt = self.renderInlineAsText(token.children ?? [], options, env).trim();
  const href = escapeHtml(String(token.attrGet('src') ?? ''));
  return `<a href="${href}" class="remote-image" rel="noopener noreferrer nofollow">Image: ${escapeHtml(alt || 'untitled')}</a>`;
};

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}

import type { AliasableExpression, Expression, Kysely } from 'kysely';
import type { VNode } from 'preact';
import type { Database } from '../db/schema.js';
import type { Language, MessageKey, Translator } from './i18n/index.js';

// The links of every page's navigation, registered by the features they lead to (the platform
// names none), in the order the features are registered. A link may carry a count (the chat's
// unread messages, the notification bell): every page would pay a round trip for each, so the
// session's one statement (chain/session-query.ts) embeds each count instead.

/**
 * Counts every page reads stop at this, and show "99+" from it on: each is read with every page,
 * so it is bounded whatever the user has let pile up.
 */
export const COUNT_CAP = 100;

/**
 * What the number counts, for the accessible name: a catalogue key of a plural message taking
 * `{count}` (`{count, plural, one {# unread chat message} other {# unread chat messages}}`).
 */
export type Counted = MessageKey;

/** What a link's own drawing is given of the page (a ViewContext is one). */
export interface LinkContext {
  path: string;
  language: Language;
  t: Translator['t'];
}

export interface NavigationLink {
  /** The link's text, a catalogue key (`nav.notes`). */
  label: MessageKey;
  href: string;
  /** With the sections (the default), or in the account's corner beside the username (the bell). */
  place?: 'sections' | 'account';
  /** The pages where this link is the current one (aria-current), rather than a section's: `/groups/<pk>/chat/`. */
  current?: RegExp;
  /** A number beside the link, read with the session. */
  count?: {
    counted: Counted;
    /** A scalar subquery counting for the user (`userId` a reference to the session's user), bounded by COUNT_CAP: it runs with every page. */
    query: (db: Kysely<Database>, userId: Expression<number>) => AliasableExpression<unknown>;
  };
  /** Draws the link in place of the plain one (the bell, with its icon and live count). */
  render?: (ctx: LinkContext, count: number) => VNode;
  /** A script every signed-in page loads for this link, under public/ (the bell's live count). */
  script?: string;
}

/** A link as one session reads it: with its count (0 for links without one). */
export interface NavigationEntry {
  link: NavigationLink;
  count: number;
}

/** The number on a badge: counts stop at COUNT_CAP, shown as "99+". */
export function countBadge(count: number): string {
  return count >= COUNT_CAP ? `${COUNT_CAP - 1}+` : String(count);
}

/**
 * The words a counted link says for each plural form of the page's language, with `{count}` for
 * the number, for a script that is told a new count live to say it in the page's words (it holds
 * none of its own): `data-label-more` (past the cap) and `data-label-<form>`, each form the
 * catalogue's message for the first count that takes it. `say(count)` words a count.
 */
export function countLabelForms(say: (count: number) => string, rules: Intl.PluralRules): Record<string, string> {
  const forms: Record<string, string> = { 'data-label-more': say(COUNT_CAP) };
  for (let count = 1; count < COUNT_CAP; count++) {
    const name = `data-label-${rules.select(count)}`;
    forms[name] ??= say(count).replace(String(count), '{count}');
  }
  return forms;
}

declare module './hub/hub.js' {
  interface HubEvents {
    /**
     * These users' navigation counts moved (published after commit by the feature whose count it
     * is, as the chat does for a new message): their open pages are told the new counts.
     */
    'navigation.changed': { userIds: number[] };
  }
}

/** The links that carry a count, in order: the session statement's columns `navigation_<index>`. */
export function countedLinks(links: readonly NavigationLink[]): NavigationLink[] {
  return links.filter((link) => link.count !== undefined);
}

/** Every link with its count from a session's row. */
export function navigationEntries(links: readonly NavigationLink[], row: object): NavigationEntry[] {
  const values = row as Record<string, unknown>;
  const counted = countedLinks(links);
  return links.map((link) => ({ link, count: link.count ? Number(values[`navigation_${counted.indexOf(link)}`] ?? 0) : 0 }));
}

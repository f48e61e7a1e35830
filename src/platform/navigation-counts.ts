import type { AliasableExpression, Expression, Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { MessageKey } from './i18n/index.js';

// Counts every page's navigation shows beside a link (the chat's unread messages), registered by
// the features that own them. Every page would pay a round trip for each: instead the session's
// one statement (chain/session.ts) embeds each count, as it does the bell's.

/**
 * What the number counts, for the accessible name: a catalogue key of a plural message taking
 * `{count}` (`{count, plural, one {# unread chat message} other {# unread chat messages}}`), or
 * (older callers, English only) the words for one and for many.
 */
export type Counted = MessageKey | { one: string; many: string };

export interface NavigationCount {
  /** The link's text, a catalogue key (`nav.chat`); other text is shown as it is. */
  label: string;
  href: string;
  counted: Counted;
  /** The pages where this link is the current one (aria-current), rather than a section's: `/groups/<pk>/chat/`. */
  current?: RegExp;
  /**
   * A scalar subquery counting for the user (`userId` a reference to the session's user),
   * bounded like the bell's (UNREAD_CAP): it runs with every page.
   */
  query: (db: Kysely<Database>, userId: Expression<number>) => AliasableExpression<unknown>;
}

/** A navigation count as read with one session. */
export interface NavigationBadge {
  label: string;
  href: string;
  counted: Counted;
  current?: RegExp;
  count: number;
}

/** The counts of a session's row (columns `navigation_<index>`), with what the links show. */
export function navigationBadges(counts: readonly NavigationCount[], row: object): NavigationBadge[] {
  const values = row as Record<string, unknown>;
  return counts.map(({ label, href, counted, current }, index) => ({ label, href, counted, current, count: Number(values[`navigation_${index}`] ?? 0) }));
}

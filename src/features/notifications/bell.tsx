import { COUNT_CAP, countBadge, type LinkContext, type NavigationLink } from '../../platform/navigation.js';
import { localeOf } from '../../platform/time-zones.js';
import { unreadCountQuery } from './notifications.js';

// The bell in every page's navigation: a plain link to /notifications/ with the unread count, a
// navigation link the notifications feature registers. public/js/notifications.js keeps the same
// words and number up to date over a socket.

/** The link's accessible name, in the page's language. */
export function unreadLabel(t: LinkContext['t'], count: number): string {
  return count >= COUNT_CAP ? t('bell.unread_more', { cap: COUNT_CAP - 1 }) : t('bell.unread', { count: Math.max(count, 0) });
}

/**
 * The label for each plural form of the page's language, with `{count}` for the number, for
 * public/js/notifications.js to say a new count in the page's words (it holds none of its own):
 * each form is the catalogue's message for the first count that takes it.
 */
export function unreadLabelForms(ctx: LinkContext): Record<string, string> {
  let forms = labelForms.get(ctx.t);
  if (!forms) {
    forms = labelFormsIn(ctx);
    labelForms.set(ctx.t, forms);
  }
  return forms;
}

/** Worked out once per language (a hundred messages formatted), kept by its translator. */
const labelForms = new WeakMap<LinkContext['t'], Record<string, string>>();

function labelFormsIn(ctx: LinkContext): Record<string, string> {
  const rules = new Intl.PluralRules(localeOf(ctx.language));
  const forms: Record<string, string> = { 'data-label-none': unreadLabel(ctx.t, 0), 'data-label-more': unreadLabel(ctx.t, COUNT_CAP) };
  for (let count = 1; count < COUNT_CAP; count++) {
    const name = `data-label-${rules.select(count)}`;
    forms[name] ??= unreadLabel(ctx.t, count).replace(String(count), '{count}');
  }
  return forms;
}

/** A bell outline. Decorative: the link's name is the text beside it. */
function BellIcon() {
  return (
    <svg class="bell-icon" width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M6 10a6 6 0 0 1 12 0c0 5 2 7 2 7H4s2-2 2-7" />
      <path d="M10 20a2 2 0 0 0 4 0" />
    </svg>
  );
}

export function Bell({ ctx, unread }: { ctx: LinkContext; unread: number }) {
  return (
    <a
      href="/notifications/"
      class="bell"
      id="notification-bell"
      data-socket-path="/ws/notifications/"
      data-unread={String(unread)}
      aria-current={ctx.path.startsWith('/notifications/') ? 'page' : undefined}
      {...unreadLabelForms(ctx)}
    >
      <BellIcon />
      <span class="visually-hidden" data-bell-label>
        {unreadLabel(ctx.t, unread)}
      </span>
      <span class="bell-count" aria-hidden="true" hidden={unread <= 0}>
        {countBadge(unread)}
      </span>
    </a>
  );
}

/** The bell as a link of every page's navigation: beside the account, its count read with the session. */
export const BELL: NavigationLink = {
  label: 'bell.unread',
  href: '/notifications/',
  place: 'account',
  count: { counted: 'bell.unread', query: (db, userId) => unreadCountQuery(db, userId) },
  render: (ctx, count) => <Bell ctx={ctx} unread={count} />,
  script: 'js/notifications.js',
};

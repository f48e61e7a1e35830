import { UNREAD_CAP } from '../notifications.js';
import type { ViewContext } from './render.js';

// The bell in every page's navigation: a plain link to /notifications/ with the unread count.
// public/js/notifications.js keeps the same words and number up to date over a socket.

/** The number on the badge: counts stop at UNREAD_CAP, shown as "99+". */
export function unreadBadge(count: number): string {
  return count >= UNREAD_CAP ? `${UNREAD_CAP - 1}+` : String(count);
}

/** The link's accessible name. */
export function unreadLabel(count: number): string {
  if (count <= 0) return 'Notifications, none unread';
  return count >= UNREAD_CAP ? `Notifications, more than ${UNREAD_CAP - 1} unread` : `Notifications, ${count} unread`;
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

export function Bell({ ctx, unread }: { ctx: ViewContext; unread: number }) {
  return (
    <a
      href="/notifications/"
      class="bell"
      id="notification-bell"
      data-socket-path="/ws/notifications/"
      data-unread={String(unread)}
      aria-current={ctx.path.startsWith('/notifications/') ? 'page' : undefined}
    >
      <BellIcon />
      <span class="visually-hidden" data-bell-label>
        {unreadLabel(unread)}
      </span>
      <span class="bell-count" aria-hidden="true" hidden={unread <= 0}>
        {unreadBadge(unread)}
      </span>
    </a>
  );
}

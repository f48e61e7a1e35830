import { Time } from '../../platform/views/controls.js';
import { CsrfField } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import { BELL } from './bell.js';
import type { ViewContext } from '../../platform/views/context.js';
import type { NotificationPage, NotificationRow } from './repository.js';
import { notificationMessage } from './texts.js';
import { say } from '../../platform/i18n/index.js';

export const pageUrl = (page: number) => (page === 1 ? '/notifications/' : `/notifications/?page=${page}`);

/** Sends a POST back to the page it was made on. */
function PageField({ page }: { page: number }) {
  return page > 1 ? <input type="hidden" name="page" value={String(page)} /> : null;
}

function NotificationItem({ ctx, notification, page }: { ctx: ViewContext; notification: NotificationRow; page: number }) {
  const unread = notification.read_at === null;
  const text = say(notificationMessage(notification));
  return (
    <li class={unread ? 'unread' : 'read'}>
      <div class="notification-body">
        <p class="notification-text">
          {unread ? <span class="badge badge-group">{ctx.t('notifications.new')}</span> : null} {text}
        </p>
        <span class="notification-meta">
          <Time ms={notification.created_at} timeZone={ctx.user!.timezone} />
          {notification.link ? (
            <>
              {' · '}
              <a href={`/notifications/${notification.id}/open/`}>
                {ctx.t('notifications.open')}<span class="visually-hidden">{ctx.t('notifications.about', { text })}</span>
              </a>
            </>
          ) : null}
        </span>
      </div>
      {unread ? (
        <form method="post" action={`/notifications/${notification.id}/read/`} class="inline">
          <CsrfField ctx={ctx} />
          <PageField page={page} />
          <button type="submit" class="secondary outline small">
            {ctx.t('notifications.mark_read')}<span class="visually-hidden">{ctx.t('notifications.about', { text })}</span>
          </button>
        </form>
      ) : null}
    </li>
  );
}

export function NotificationsPage({ ctx, result }: { ctx: ViewContext; result: NotificationPage }) {
  const { notifications, page, hasNext } = result;
  const anyUnread = (ctx.navigation.find((entry) => entry.link === BELL)?.count ?? 0) > 0;
  return (
    <Layout ctx={ctx} title={ctx.t('notifications.title')}>
      <div class="page-header">
        <h1>{ctx.t('notifications.title')}</h1>
        {anyUnread ? (
          <form method="post" action="/notifications/read/" class="inline">
            <CsrfField ctx={ctx} />
            <PageField page={page} />
            <button type="submit" class="secondary">{ctx.t('notifications.mark_all')}</button>
          </form>
        ) : null}
      </div>
      {notifications.length === 0 ? (
        <p class="empty-state">{ctx.t('notifications.empty')}</p>
      ) : (
        <ul class="notification-list">
          {notifications.map((notification) => (
            <NotificationItem ctx={ctx} notification={notification} page={page} />
          ))}
        </ul>
      )}
      {page > 1 || hasNext ? (
        <nav class="pager" aria-label={ctx.t('notifications.pages')}>
          {page > 1 ? <a href={pageUrl(page - 1)} rel="prev">{ctx.t('notifications.newer')}</a> : <span />}
          <span>{ctx.t('notifications.page', { page })}</span>
          {hasNext ? <a href={pageUrl(page + 1)} rel="next">{ctx.t('notifications.older')}</a> : <span />}
        </nav>
      ) : null}
    </Layout>
  );
}

import type { Expression, Kysely } from 'kysely';
import { fixedLimit } from '../../db/fixed-limit.js';
import type { Database } from '../../db/schema.js';
import type { Hub } from '../../platform/hub/hub.js';
import { translate, translator } from '../../platform/i18n/index.js';
import { COUNT_CAP } from '../../platform/navigation.js';
import type { NewNotification, Notifier } from '../../services.js';

const TEXT_LIMIT = 500;

/**
 * The user's unread count, up to COUNT_CAP, read off the partial index of unread rows
 * (db/migrations/0014_notifications.ts): the session's statement embeds it (`userId` a reference
 * to its user), the live bell runs it alone.
 */
export function unreadCountQuery(db: Kysely<Database>, userId: Expression<number>) {
  return db
    .selectFrom(
      db
        .selectFrom('notifications')
        .select('notifications.id')
        .where('notifications.user_id', '=', userId)
        .where('notifications.read_at', 'is', null)
        .limit(fixedLimit(COUNT_CAP))
        .as('unread_rows'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'));
}

/**
 * In-app notifications, for any feature to send. A notification is a row written in the
 * transaction of the change that causes it, so it is never lost nor doubled; `announce` then
 * tells the open pages of those users on every instance, once the transaction has committed.
 */
export class Notifications implements Notifier {
  /** Without a hub (a CLI command), announce does nothing: the caller tells running servers itself. */
  constructor(private readonly hub: Pick<Hub, 'publish'> | null) {}

  /** Queues one notification per user, in `db` (the caller's transaction). Returns nothing to wait for but the insert. */
  async add(db: Kysely<Database>, userIds: readonly number[], notification: NewNotification, now = Date.now()): Promise<void> {
    const recipients = [...new Set(userIds)];
    if (recipients.length === 0) return;
    const words = typeof notification.text === 'string' ? notification.text : translate(translator('en'), notification.text);
    const message = typeof notification.text === 'string' ? '' : JSON.stringify(notification.text);
    const text = words.length > TEXT_LIMIT ? `${words.slice(0, TEXT_LIMIT - 1)}…` : words;
    const link = notification.link?.startsWith('/') && !notification.link.startsWith('//') ? notification.link : '';
    await db
      .insertInto('notifications')
      .values(recipients.map((userId) => ({ user_id: userId, kind: notification.kind, text, message, link, created_at: now, read_at: null })))
      .execute();
  }

  /** Tells these users' open pages, here and on every other instance, that their unread count moved. Call after commit. */
  announce(userIds: readonly number[]): void {
    const recipients = [...new Set(userIds)];
    if (recipients.length > 0) this.hub?.publish({ type: 'notifications.changed', userIds: recipients });
  }
}

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export const PAGE_SIZE = 25;

export interface NotificationRow {
  id: number;
  kind: string;
  text: string;
  /** A catalogue key with values, JSON, or '' (platform/notifications.ts). */
  message: string;
  link: string;
  created_at: number;
  read_at: number | null;
}

const COLUMNS = ['id', 'kind', 'text', 'message', 'link', 'created_at', 'read_at'] as const;

export interface NotificationPage {
  notifications: NotificationRow[];
  page: number;
  hasNext: boolean;
}

/** The caller's own notifications: every query is scoped to the user, so another's id names nothing. */
export class NotificationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Newest first, PAGE_SIZE a page, on the (user_id, id) index; one row more tells whether a next page exists. */
  async page(userId: number, page: number): Promise<NotificationPage> {
    const rows = await this.db
      .selectFrom('notifications')
      .select(COLUMNS)
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(PAGE_SIZE + 1)
      .offset((page - 1) * PAGE_SIZE)
      .execute();
    return { notifications: rows.slice(0, PAGE_SIZE), page, hasNext: rows.length > PAGE_SIZE };
  }

  /** A page of the API's list: newest first, older than `beforeId`, only unread ones if asked; on the same indexes. */
  pageBefore(userId: number, { beforeId, unreadOnly }: { beforeId: number | null; unreadOnly: boolean }, limit: number): Promise<NotificationRow[]> {
    let query = this.db.selectFrom('notifications').select(COLUMNS).where('user_id', '=', userId);
    if (beforeId !== null) query = query.where('id', '<', beforeId);
    if (unreadOnly) query = query.where('read_at', 'is', null);
    return query.orderBy('id', 'desc').limit(limit).execute();
  }

  findOwned(userId: number, id: number): Promise<NotificationRow | undefined> {
    return this.db.selectFrom('notifications').select(COLUMNS).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  /**
   * Marks one of the user's notifications read (a read one stays as it was); false when the user
   * has none such: the check and the change are one statement.
   */
  async markRead(userId: number, id: number, now = Date.now()): Promise<boolean> {
    const result = await this.db
      .updateTable('notifications')
      .set((eb) => ({ read_at: eb.fn.coalesce('read_at', eb.val(now)) }))
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Marks every unread notification of the user read; returns how many were. */
  async markAllRead(userId: number, now = Date.now()): Promise<number> {
    const result = await this.db.updateTable('notifications').set({ read_at: now }).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}

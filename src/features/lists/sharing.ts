import { type Kysely, type RawBuilder, sql } from 'kysely';
import { jsonRowsFrom } from '../../db/json-rows.js';
import { z } from 'zod';
import type { Database, SharePermission } from '../../db/schema.js';
import { parseForm } from '../../platform/forms.js';
import { type Message, msg } from '../../platform/i18n/index.js';
import type { NewNotification, Notifier } from '../../services.js';
import type { FormErrors, FormValues } from '../../platform/forms.js';
import { UsersRepository } from '../accounts/index.js';
import type { ListTable, ListTables, ShareTable } from './kind.js';

/** A group the owner may put a list in (the list's form). */
export interface GroupChoice {
  id: number;
  name: string;
}

export interface SharedUser {
  id: number;
  username: string;
  permission: SharePermission;
}

export const permissionField = z.enum(['read', 'tick'], { error: msg('lists.choose_permission') });

export const shareForm = z.object({
  username: z
    .string({ error: msg('lists.username_required') })
    .trim()
    .min(1, msg('lists.username_required'))
    .max(150, msg('lists.username_max')),
  action: z.enum(['add', 'remove'], { error: msg('lists.choose_action') }),
  permission: permissionField.optional().default('read'),
});

export type ShareOutcome = { ok: true; message: Message } | { ok: false; errors: FormErrors; values: FormValues };

/** Who a list is shared with, and the changes to that: the owner's check is the caller's job. */
export class SharesRepository {
  readonly users: UsersRepository;

  private readonly table: ShareTable;
  private readonly lists: ListTable;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: ListTables,
  ) {
    this.users = new UsersRepository(db);
    this.table = kind.tables.shares;
    this.lists = kind.tables.lists;
  }

  /**
   * Who the list of the enclosing query (a row of its list table) is shared with, by username, as one
   * JSON array column (read it with parseJsonRows<SharedUser>): the list page reads the list and
   * its sharing in one query. Filled for the list's owner only (an empty array for anyone else),
   * since only the owner is shown who else reads it.
   */
  sharedUsersForOwner(userId: number): RawBuilder<unknown> {
    const lists = this.lists;
    return jsonRowsFrom(
      this.db,
      this.db
        .selectFrom(this.table)
        .innerJoin('users', 'users.id', `${this.table}.user_id`)
        .select(['users.id', 'users.username', `${this.table}.permission`])
        .where(`${this.table}.list_id`, '=', sql.ref<number>(`${lists}.id`))
        .where(sql.ref<number>(`${lists}.owner_id`), '=', userId)
        .orderBy('users.username'),
    );
  }

  /**
   * Shares the list with the user, or gives an existing share the new permission: `added`,
   * `changed`, or `unchanged` when the user had the list with that permission already.
   */
  async add(listId: number, userId: number, permission: SharePermission = 'read'): Promise<'added' | 'changed' | 'unchanged'> {
    const rows = await this.db
      .insertInto(this.table)
      .values({ list_id: listId, user_id: userId, permission })
      .onConflict((conflict) => conflict.columns(['list_id', 'user_id']).doNothing())
      .returning('list_id')
      .execute();
    if (rows.length > 0) return 'added';
    const changed = await this.db
      .updateTable(this.table)
      .set({ permission })
      .where('list_id', '=', listId)
      .where('user_id', '=', userId)
      .where('permission', '<>', permission)
      .executeTakeFirst();
    return Number(changed.numUpdatedRows) > 0 ? 'changed' : 'unchanged';
  }

  /** `work` with this repository and the database inside one transaction. */
  inTransaction<T>(work: (shares: SharesRepository, trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new SharesRepository(trx, this.kind), trx));
  }

  /** True when the user was on the list. */
  async remove(listId: number, userId: number): Promise<boolean> {
    const result = await this.db.deleteFrom(this.table).where('list_id', '=', listId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/** Who to tell of a new share, and what: the notification is written with the share, in its transaction. */
export interface ShareNotice {
  notifications: Notifier;
  notification: NewNotification;
}

/**
 * Adds or removes one user on a list the caller owns (the caller must have checked that).
 * Unknown users and the owner themself are form errors. A user newly added is sent `notice`;
 * re-adding one who has the list already changes only their permission and tells nobody.
 */
export async function changeShare(shares: SharesRepository, list: { id: number; owner_id: number }, body: unknown, notice?: ShareNotice): Promise<ShareOutcome> {
  const form = parseForm(shareForm, body);
  if (!form.ok) return form;
  const { username, action, permission } = form.data;
  const values = { username, permission };
  const user = await shares.users.findByUsername(username);
  if (!user) return { ok: false, errors: { username: [{ key: 'lists.no_such_user', values: { username } }] }, values };
  if (user.id === list.owner_id) return { ok: false, errors: { username: ['lists.own_list'] }, values };
  if (action === 'add') {
    const outcome = await shares.inTransaction(async (inside, trx) => {
      const result = await inside.add(list.id, user.id, permission);
      if (result === 'added' && notice) await notice.notifications.add(trx, [user.id], notice.notification);
      return result;
    });
    if (outcome === 'added') notice?.notifications.announce([user.id]);
    const values = { username: user.username, permission };
    if (outcome === 'changed') return { ok: true, message: { key: 'lists.share_changed', values } };
    return { ok: true, message: { key: 'lists.shared_with_user', values } };
  }
  if (!(await shares.remove(list.id, user.id))) {
    return { ok: false, errors: { username: [{ key: 'lists.not_shared_with', values: { username: user.username } }] }, values };
  }
  return { ok: true, message: { key: 'lists.share_removed', values: { username: user.username } } };
}

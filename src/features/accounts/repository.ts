import type { Kysely } from 'kysely';
import type { Database, User } from '../../db/schema.js';
import { identityKey } from '../../platform/identity-key.js';
import { usernameSkeleton } from './lookalikes.js';

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Usernames are matched by their key (case, width and invisible letters folded), as they are unique by it. */
  findByUsername(username: string): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('username_key', '=', identityKey(username)).executeTakeFirst();
  }

  /**
   * A user whose name looks like `username` (the same skeleton), or undefined. The users kept
   * from before the rule without a skeleton of their own (a few at most) are compared here too,
   * so that one of them still blocks its look-alikes once the older user it resembled is gone.
   */
  async findLookalike(username: string): Promise<{ id: number; username: string } | undefined> {
    const skeleton = usernameSkeleton(username);
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'username', 'username_skeleton'])
      .where((eb) => eb.or([eb('username_skeleton', '=', skeleton), eb('username_skeleton', 'is', null)]))
      .execute();
    return rows.find((row) => (row.username_skeleton ?? usernameSkeleton(row.username)) === skeleton);
  }

  /**
   * Matched case-insensitively, by the users_email_lower index (migration 0009). Both sides go
   * through the database's lower(), which SQLite applies to ASCII only: the same fold either way.
   */
  findActiveByEmail(email: string): Promise<User[]> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', eb.fn('lower', [eb.val(email)])))
      .where('is_active', '=', 1)
      .where('email', '!=', '')
      .execute();
  }

  findById(id: number): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The only writer of usernames, so that every row's key and skeleton are worked out the same way. */
  async insert(values: { username: string; email: string; password: string; timezone?: string }, now = Date.now()): Promise<User> {
    return this.db
      .insertInto('users')
      .values({ ...values, username_key: identityKey(values.username), username_skeleton: usernameSkeleton(values.username), date_joined: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async setAccount(id: number, values: { email: string; timezone: string; currency?: string; language?: string }): Promise<void> {
    await this.db.updateTable('users').set(values).where('id', '=', id).execute();
  }

  /** Whether the user is mailed the notices that may go by mail (a to-do item assigned, due, overdue), as well as told on the bell. */
  async mailsNotifications(id: number): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('mail_notifications').where('id', '=', id).executeTakeFirst();
    return row?.mail_notifications === 1;
  }

  async setMailNotifications(id: number, on: boolean): Promise<void> {
    await this.db.updateTable('users').set({ mail_notifications: on ? 1 : 0 }).where('id', '=', id).execute();
  }

  async setPassword(id: number, password: string): Promise<void> {
    await this.db.updateTable('users').set({ password }).where('id', '=', id).execute();
  }

  /** Sets the password only if it is still `current`; false when another change came first. */
  async replacePassword(id: number, current: string, password: string): Promise<boolean> {
    const result = await this.db.updateTable('users').set({ password }).where('id', '=', id).where('password', '=', current).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async recordLogin(id: number, now = Date.now()): Promise<void> {
    await this.db.updateTable('users').set({ last_login: now }).where('id', '=', id).execute();
  }
}

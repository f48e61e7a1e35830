import type { Kysely } from 'kysely';
import type { Database, User } from '../../db/schema.js';
import { identityKey } from '../../platform/identity-key.js';

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Usernames are matched by their key (case, width and invisible letters folded), as they are unique by it. */
  findByUsername(username: string): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('username_key', '=', identityKey(username)).executeTakeFirst();
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

  /** The only writer of usernames, so that every row's key is worked out the same way. */
  async insert(values: { username: string; email: string; password: string; timezone?: string }, now = Date.now()): Promise<User> {
    return this.db
      .insertInto('users')
      .values({ ...values, username_key: identityKey(values.username), date_joined: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async setAccount(id: number, values: { email: string; timezone: string; currency?: string; language?: string }): Promise<void> {
    await this.db.updateTable('users').set(values).where('id', '=', id).execute();
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

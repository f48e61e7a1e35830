import { type Kysely, sql } from 'kysely';
import type { Database, User } from '../../db/schema.js';

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Usernames are matched regardless of case, as they are unique regardless of case. */
  findByUsername(username: string): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where(sql<string>`lower(username)`, '=', username.toLowerCase()).executeTakeFirst();
  }

  findById(id: number): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(values: { username: string; email: string; password: string }, now = Date.now()): Promise<User> {
    return this.db
      .insertInto('users')
      .values({ ...values, date_joined: now })
      .returningAll()
      .executeTakeFirstOrThrow();
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

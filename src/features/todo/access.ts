import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { identityKey } from '../../platform/identity-key.js';
import { type ListRole, SharesRepository, type UserRef } from '../lists-sharing/sharing.js';

// Who may do what with a to-do list, defined once. Every query of the repository (and of other
// features asking "may U read this list") goes through these; a user id or a column of them.

export class TodoListAccess {
  readonly shares: SharesRepository;

  constructor(protected readonly db: Kysely<Database>) {
    this.shares = new SharesRepository(db, 'todo_list_shares');
  }

  /** Who may read a to-do list: its owner and the users it is shared with. */
  protected mayRead(eb: ExpressionBuilder<Database, 'todo_lists'>, userId: UserRef) {
    return eb.or([eb('todo_lists.owner_id', '=', userId), eb('todo_lists.id', 'in', this.shares.listIdsSharedWith(userId))]);
  }

  /** Who may tick and add items: its owner and the users it is shared with for `tick`. */
  protected mayTick(eb: ExpressionBuilder<Database, 'todo_lists'>, userId: UserRef) {
    return eb.or([eb('todo_lists.owner_id', '=', userId), eb('todo_lists.id', 'in', this.shares.listIdsTickableBy(userId))]);
  }

  /** The caller's role on the list of the enclosing query, which must be one they may read. */
  protected roleCase(eb: ExpressionBuilder<Database, 'todo_lists'>, userId: number) {
    return eb
      .case()
      .when('todo_lists.owner_id', '=', userId)
      .then(sql.lit<ListRole>('owner'))
      .when(this.mayTick(eb, userId))
      .then(sql.lit<ListRole>('tick'))
      .else(sql.lit<ListRole>('read'))
      .end();
  }

  /** The one definition of who may read a to-do list (a user, or a column of users). */
  visibleLists(userId: UserRef) {
    return this.db.selectFrom('todo_lists').where((eb) => this.mayRead(eb, userId));
  }

  /** The one definition of who may tick and add items of a to-do list. */
  tickableLists(userId: UserRef) {
    return this.db.selectFrom('todo_lists').where((eb) => this.mayTick(eb, userId));
  }

  /** The one definition of who may change a to-do list, delete its items and share it: its owner. */
  ownedLists(userId: UserRef) {
    return this.db.selectFrom('todo_lists').where('todo_lists.owner_id', '=', userId);
  }

  /** What the user may do with the list, in one query; undefined when they may not see it. */
  async roleOf(userId: number, listId: number): Promise<ListRole | undefined> {
    const row = await this.visibleLists(userId)
      .select((eb) => this.roleCase(eb, userId).as('role'))
      .where('todo_lists.id', '=', listId)
      .executeTakeFirst();
    return row?.role;
  }

  /**
   * The people who may read the list (whom an item may be assigned to): the owner and the
   * shared users are the candidates, each admitted by the read definition itself.
   */
  protected readersQuery(listId: number) {
    return this.db
      .selectFrom('users')
      .where((eb) =>
        eb.or([
          eb('users.id', 'in', eb.selectFrom('todo_lists').select('todo_lists.owner_id').where('todo_lists.id', '=', listId)),
          eb('users.id', 'in', eb.selectFrom('todo_list_shares').select('todo_list_shares.user_id').where('todo_list_shares.list_id', '=', listId)),
        ]),
      )
      .where((eb) => eb.exists(this.visibleLists(eb.ref('users.id')).select('todo_lists.id').where('todo_lists.id', '=', listId)));
  }

  /** The id of the reader of the list with this username (matched as logins are), as a subquery. */
  protected readerNamedQuery(listId: number, username: string) {
    return this.readersQuery(listId).select('users.id').where('users.username_key', '=', identityKey(username));
  }

  /** The people who may read the list, by username. */
  readers(listId: number): Promise<{ id: number; username: string }[]> {
    return this.readersQuery(listId).select(['users.id', 'users.username']).orderBy('users.username_key').execute();
  }

  /** A reader of the list by username, or undefined. */
  async readerNamed(listId: number, username: string): Promise<number | undefined> {
    return (await this.readerNamedQuery(listId, username).executeTakeFirst())?.id;
  }
}

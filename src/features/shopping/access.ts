import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { GroupsRepository } from '../groups/repository.js';
import { type ListRole, SharesRepository, type UserRef } from '../lists-sharing/sharing.js';

// Who may do what with a shopping list, defined once. Every query of the repository (and of
// other features asking "may U read this list") goes through these; a user id or a column of them.

export class ShoppingListAccess {
  readonly shares: SharesRepository;
  readonly groups: GroupsRepository;

  constructor(protected readonly db: Kysely<Database>) {
    this.shares = new SharesRepository(db, 'shopping_list_shares');
    this.groups = new GroupsRepository(db);
  }

  /** Who may read a shopping list: its owner, users it is shared with, members of its group. */
  protected mayRead(eb: ExpressionBuilder<Database, 'shopping_lists'>, userId: UserRef) {
    return eb.or([
      eb('shopping_lists.owner_id', '=', userId),
      eb('shopping_lists.id', 'in', this.shares.listIdsSharedWith(userId)),
      eb('shopping_lists.group_id', 'in', this.groups.memberGroupIds(userId)),
    ]);
  }

  /** Who may tick and add items: its owner, users it is shared with for `tick`, members of its group when the group may tick. */
  protected mayTick(eb: ExpressionBuilder<Database, 'shopping_lists'>, userId: UserRef) {
    return eb.or([
      eb('shopping_lists.owner_id', '=', userId),
      eb('shopping_lists.id', 'in', this.shares.listIdsTickableBy(userId)),
      eb.and([eb('shopping_lists.group_permission', '=', 'tick'), eb('shopping_lists.group_id', 'in', this.groups.memberGroupIds(userId))]),
    ]);
  }

  /** The caller's role on the list of the enclosing query, which must be one they may read. */
  protected roleCase(eb: ExpressionBuilder<Database, 'shopping_lists'>, userId: number) {
    return eb
      .case()
      .when('shopping_lists.owner_id', '=', userId)
      .then(sql.lit<ListRole>('owner'))
      .when(this.mayTick(eb, userId))
      .then(sql.lit<ListRole>('tick'))
      .else(sql.lit<ListRole>('read'))
      .end();
  }

  /** The one definition of who may read a shopping list (a user, or a column of users). */
  visibleLists(userId: UserRef) {
    return this.db.selectFrom('shopping_lists').where((eb) => this.mayRead(eb, userId));
  }

  /** The one definition of who may tick and add items of a shopping list. */
  tickableLists(userId: UserRef) {
    return this.db.selectFrom('shopping_lists').where((eb) => this.mayTick(eb, userId));
  }

  /** The one definition of who may change a shopping list, delete its items and share it: its owner. */
  ownedLists(userId: UserRef) {
    return this.db.selectFrom('shopping_lists').where('shopping_lists.owner_id', '=', userId);
  }

  /** What the user may do with the list, in one query; undefined when they may not see it. */
  async roleOf(userId: number, listId: number): Promise<ListRole | undefined> {
    const row = await this.visibleLists(userId)
      .select((eb) => this.roleCase(eb, userId).as('role'))
      .where('shopping_lists.id', '=', listId)
      .executeTakeFirst();
    return row?.role;
  }
}

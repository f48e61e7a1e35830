import type { Kysely } from 'kysely';
import type { Database, Group } from '../../db/schema.js';

/** Group memberships: the one place other features learn which groups a user is in. */
export class GroupsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A subquery of the ids of the user's groups, to embed in visibility queries (`group_id in (...)`). */
  memberGroupIds(userId: number) {
    return this.db.selectFrom('group_members').select('group_members.group_id').where('group_members.user_id', '=', userId);
  }

  async isMember(groupId: number, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('group_members')
      .select('group_id')
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The user's groups by name, for choosers in forms. */
  listForMember(userId: number): Promise<Pick<Group, 'id' | 'name'>[]> {
    return this.db
      .selectFrom('groups')
      .innerJoin('group_members', 'group_members.group_id', 'groups.id')
      .select(['groups.id', 'groups.name'])
      .where('group_members.user_id', '=', userId)
      .orderBy('groups.name')
      .execute();
  }
}

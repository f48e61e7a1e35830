import { type Expression, type Kysely, sql } from 'kysely';
import type { Database, Group } from '../../db/schema.js';
import { identityKey } from '../../platform/identity-key.js';
import { isOneOf } from '../../db/id-lists.js';
import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import { fixedLimit } from '../../db/fixed-limit.js';
import { unreadInGroupQuery } from './chat/reads.js';
import type { ObjectKinds } from '../../platform/object-kinds.js';
import { type ActivityEntry, readRecentActivity, recentActivityColumn } from './activity.js';
import { readSharedObjects, type SharedSection, sharedObjectColumns } from './shared-objects.js';

export interface GroupSummary {
  id: number;
  name: string;
  owner_id: number;
  owner: string;
  member_count: number;
  created_at: number;
}

export interface GroupMember {
  id: number;
  username: string;
  joined_at: number;
}

/** A group with what its page shows. */
export interface GroupPageRows {
  group: GroupSummary;
  members: GroupMember[];
  /** Its recent events the reader may see. */
  activity: ActivityEntry[];
  /** What is shared with the group that the reader may see, by kind (platform/groups/shared-objects.ts). */
  shared: SharedSection[];
}

/** Groups and memberships: the one place other features learn which groups a user is in. */
/** Members' names a chat page carries for its mention suggestions, at most: the page stays small in a large group. */
export const MAX_SUGGESTED_MEMBERS = 500;

export class GroupsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * A subquery of the ids of the user's groups, to embed in visibility queries (`group_id in (...)`);
   * `userId` may be a column (`users.id`), to ask it for each user of an enclosing query.
   */
  memberGroupIds(userId: number | Expression<number>) {
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
      .orderBy('groups.name_key')
      .orderBy('groups.id')
      .execute();
  }

  private summaries() {
    return this.db
      .selectFrom('groups')
      .innerJoin('users as owner', 'owner.id', 'groups.owner_id')
      .select((eb) => [
        'groups.id',
        'groups.name',
        'groups.owner_id',
        'owner.username as owner',
        'groups.created_at',
        eb.selectFrom('group_members').select(eb.fn.countAll<number>().as('n')).whereRef('group_members.group_id', '=', 'groups.id').as('member_count'),
      ]);
  }

  /** The user's groups with owner and size, for the groups page. */
  async listSummariesForMember(userId: number): Promise<(GroupSummary & { unread: number })[]> {
    const rows = await this.summaries()
      .select((eb) => unreadInGroupQuery(this.db, userId, eb.ref('groups.id')).as('unread'))
      .where('groups.id', 'in', this.memberGroupIds(userId))
      .orderBy('groups.name_key')
      .orderBy('groups.id')
      .execute();
    return rows.map((row) => ({ ...row, member_count: Number(row.member_count), unread: Number(row.unread ?? 0) }));
  }

  /** A page of the user's groups in the order they were made (by id, a stable key for the API's cursor), after `afterId`. */
  async pageSummariesForMember(userId: number, limit: number, afterId?: number): Promise<GroupSummary[]> {
    let query = this.summaries().where('groups.id', 'in', this.memberGroupIds(userId));
    if (afterId !== undefined) query = query.where('groups.id', '>', afterId);
    const rows = await query.orderBy('groups.id').limit(limit).execute();
    return rows.map((row) => ({ ...row, member_count: Number(row.member_count) }));
  }

  /**
   * Members of a group, by user id, after `afterUserId`: none unless `callerId` is a member too
   * (the caller's membership is part of the query, like the group page's).
   */
  pageMembers(callerId: number, groupId: number, limit: number, afterUserId?: number, onlyUserId?: number): Promise<GroupMember[]> {
    let query = this.db
      .selectFrom('group_members')
      .innerJoin('users', 'users.id', 'group_members.user_id')
      .select(['users.id', 'users.username', 'group_members.joined_at'])
      .where('group_members.group_id', '=', groupId)
      .where('group_members.group_id', 'in', this.memberGroupIds(callerId));
    if (afterUserId !== undefined) query = query.where('users.id', '>', afterUserId);
    if (onlyUserId !== undefined) query = query.where('users.id', '=', onlyUserId);
    return query.orderBy('users.id').limit(limit).execute();
  }

  /** A group the user belongs to; undefined for a group that is absent or not the user's. */
  async findMemberGroup(userId: number, groupId: number): Promise<GroupSummary | undefined> {
    const row = await this.summaries().where('groups.id', '=', groupId).where('groups.id', 'in', this.memberGroupIds(userId)).executeTakeFirst();
    return row && { ...row, member_count: Number(row.member_count) };
  }

  /**
   * findMemberGroup with its members' usernames (for the chat's mention suggestions, the first
   * MAX_SUGGESTED_MEMBERS by name: every page carries them), for the chat page: one query.
   */
  async findChatPageGroup(userId: number, groupId: number): Promise<(GroupSummary & { members: string[] }) | undefined> {
    const row = await this.summaries()
      .select((eb) => [
        jsonRowsFrom(
          this.db,
          eb
            .selectFrom('group_members')
            .innerJoin('users', 'users.id', 'group_members.user_id')
            .select('users.username')
            .whereRef('group_members.group_id', '=', 'groups.id')
            .orderBy('users.username_key')
            .limit(fixedLimit(MAX_SUGGESTED_MEMBERS)),
        ).as('members'),
      ])
      .where('groups.id', '=', groupId)
      .where('groups.id', 'in', this.memberGroupIds(userId))
      .executeTakeFirst();
    if (!row) return undefined;
    const { members, ...group } = row;
    return { ...group, member_count: Number(row.member_count), members: parseJsonRows<{ username: string }>(members).map((member) => member.username) };
  }

  /**
   * The user's groups for the chat list: each with its unread messages (up to COUNT_CAP) and the
   * time of its last message, the latest first (groups without messages after them, newest first).
   * One query; the last message is read off the (group_id, id) index.
   */
  async listChatsForMember(userId: number): Promise<{ id: number; name: string; unread: number; last_message_at: number | null }[]> {
    const rows = await this.db
      .selectFrom('groups')
      .select((eb) => [
        'groups.id',
        'groups.name',
        unreadInGroupQuery(this.db, userId, eb.ref('groups.id')).as('unread'),
        eb.selectFrom('chat_messages').select('chat_messages.created_at').whereRef('chat_messages.group_id', '=', 'groups.id').orderBy('chat_messages.id', 'desc').limit(1).as('last_message_at'),
      ])
      .where('groups.id', 'in', this.memberGroupIds(userId))
      .execute();
    const chats = rows.map((row) => ({ id: row.id, name: row.name, unread: Number(row.unread ?? 0), last_message_at: row.last_message_at === null ? null : Number(row.last_message_at) }));
    return chats.sort((a, b) => (b.last_message_at ?? 0) - (a.last_message_at ?? 0) || b.id - a.id);
  }

  /**
   * A group the user belongs to with its members by username and, given the kinds of object
   * (the page; the API shows none), its recent events the user may see and what is shared with
   * it that the user may see (JSON arrays): one query.
   */
  async findMemberGroupPage(userId: number, groupId: number, kinds?: ObjectKinds): Promise<GroupPageRows | undefined> {
    const row = await this.summaries()
      .select((eb) => [
        jsonRowsFrom(
          this.db,
          eb
            .selectFrom('group_members')
            .innerJoin('users', 'users.id', 'group_members.user_id')
            .select(['users.id', 'users.username', 'group_members.joined_at'])
            .whereRef('group_members.group_id', '=', 'groups.id')
            .orderBy('users.username'),
        ).as('members'),
        (kinds ? recentActivityColumn(this.db, kinds, userId, eb.ref('groups.id')) : sql<unknown>`null`).as('activity'),
        ...(kinds ? sharedObjectColumns(this.db, kinds, userId, eb.ref('groups.id')) : []),
      ])
      .where('groups.id', '=', groupId)
      .where('groups.id', 'in', this.memberGroupIds(userId))
      .executeTakeFirst();
    if (!row) return undefined;
    const { members, activity: events, id, name, owner_id, owner, member_count, created_at } = row;
    return {
      group: { id, name, owner_id, owner, created_at, member_count: Number(member_count) },
      members: parseJsonRows<GroupMember>(members),
      activity: kinds ? readRecentActivity(kinds, events) : [],
      shared: kinds ? readSharedObjects(kinds, row) : [],
    };
  }

  /** Which of these (group, user) pairs are memberships, as `group:user` strings. */
  async existingMemberships(groupIds: number[], userIds: number[]): Promise<Set<string>> {
    if (groupIds.length === 0 || userIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('group_members')
      .select(['group_id', 'user_id'])
      .where((eb) => isOneOf(this.db, eb.ref('group_id'), groupIds))
      .where((eb) => isOneOf(this.db, eb.ref('user_id'), userIds))
      .execute();
    return new Set(rows.map((row) => `${row.group_id}:${row.user_id}`));
  }

  /** A group the user owns; undefined otherwise (a member who does not own it included). */
  findOwnedGroup(userId: number, groupId: number): Promise<Group | undefined> {
    return this.db.selectFrom('groups').selectAll().where('id', '=', groupId).where('owner_id', '=', userId).executeTakeFirst();
  }

  /** The owner's group of this name (names are unique per owner, compared by their key). */
  findOwnedByName(ownerId: number, name: string): Promise<Group | undefined> {
    return this.db.selectFrom('groups').selectAll().where('owner_id', '=', ownerId).where('name_key', '=', identityKey(name)).executeTakeFirst();
  }

  /** Every owner's group of this name, with the owner's username: for the command line, which names groups site-wide. */
  findAllByName(name: string): Promise<(Group & { owner: string })[]> {
    return this.db
      .selectFrom('groups')
      .innerJoin('users as owner', 'owner.id', 'groups.owner_id')
      .selectAll('groups')
      .select('owner.username as owner')
      .where('groups.name_key', '=', identityKey(name))
      .orderBy('owner.username_key')
      .execute();
  }

  findById(groupId: number): Promise<Group | undefined> {
    return this.db.selectFrom('groups').selectAll().where('id', '=', groupId).executeTakeFirst();
  }

  /** The only writer of group names, so that every row's key is worked out the same way. */
  insertGroup(name: string, ownerId: number, now = Date.now()): Promise<Group> {
    return this.db
      .insertInto('groups')
      .values({ name, name_key: identityKey(name), owner_id: ownerId, created_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Renames the owner's group, its key worked out as insertGroup does; false when it is not theirs. */
  async renameGroup(groupId: number, ownerId: number, name: string): Promise<boolean> {
    const result = await this.db.updateTable('groups').set({ name, name_key: identityKey(name) }).where('id', '=', groupId).where('owner_id', '=', ownerId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async addMember(groupId: number, userId: number, now = Date.now()): Promise<void> {
    await this.db.insertInto('group_members').values({ group_id: groupId, user_id: userId, joined_at: now }).execute();
  }

  /** Removes a membership; false when there was none. */
  async removeMember(groupId: number, userId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('group_members').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Memberships and chat go with the group (cascade); notes and lists keep their owner and lose the group (set null). */
  async deleteGroup(groupId: number): Promise<void> {
    await this.db.deleteFrom('groups').where('id', '=', groupId).execute();
  }
}

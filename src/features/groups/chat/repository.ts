import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.js';

export interface StoredChatMessage {
  id: number;
  author: string;
  content: string;
  created_at: number;
  edited_at: number | null;
  deleted_at: number | null;
}

export class ChatRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Stores a message only while its author is a member of the group, in one statement (the
   * membership row supplies group and author), so a removal can never race a late message in.
   */
  async insertIfMember(groupId: number, userId: number, content: string, now = Date.now()): Promise<{ id: number; created_at: number } | undefined> {
    return this.db
      .insertInto('chat_messages')
      .columns(['group_id', 'author_id', 'content', 'created_at'])
      .expression(
        this.db
          .selectFrom('group_members')
          .select(['group_members.group_id', 'group_members.user_id', sql<string>`${content}`.as('content'), sql<number>`cast(${now} as bigint)`.as('created_at')])
          .where('group_members.group_id', '=', groupId)
          .where('group_members.user_id', '=', userId),
      )
      .returning(['id', 'created_at'])
      .executeTakeFirst();
  }

  /** The group's members but `userId`: whose unread count a message of theirs moves. */
  async otherMemberIds(groupId: number, userId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('group_members').select('user_id').where('group_id', '=', groupId).where('user_id', '!=', userId).execute();
    return rows.map((row) => row.user_id);
  }

  /**
   * The latest `limit` messages of a group (before a message id, if given), oldest first, and
   * none unless `memberId` is a member: the membership is part of the query, so a removal that
   * lands after the caller's check still shows nothing.
   */
  async latest(groupId: number, memberId: number, limit: number, beforeId?: number): Promise<StoredChatMessage[]> {
    let query = this.db
      .selectFrom('chat_messages')
      .innerJoin('group_members', (join) => join.onRef('group_members.group_id', '=', 'chat_messages.group_id').on('group_members.user_id', '=', memberId))
      .innerJoin('users', 'users.id', 'chat_messages.author_id')
      .select(['chat_messages.id', 'users.username as author', 'chat_messages.content', 'chat_messages.created_at', 'chat_messages.edited_at', 'chat_messages.deleted_at'])
      .where('chat_messages.group_id', '=', groupId);
    if (beforeId !== undefined) query = query.where('chat_messages.id', '<', beforeId);
    const rows = await query.orderBy('chat_messages.id', 'desc').limit(limit).execute();
    return rows.reverse();
  }
}

import { type Expression, type Kysely, sql } from 'kysely';
import { fixedLimit } from '../../../db/fixed-limit.js';
import type { Database } from '../../../db/schema.js';
import { COUNT_CAP } from '../../../platform/navigation.js';

// Unread chat messages: those above the member's read mark (chat_reads, migration 0019) that
// someone else wrote. Counts stop at COUNT_CAP, like the bell's: each reads at most that many
// rows of the (group_id, id) index past the mark, however much has piled up.

/** A member's unread messages in all their groups, up to COUNT_CAP: embedded in the session's statement. */
export function unreadChatTotalQuery(db: Kysely<Database>, userId: Expression<number>) {
  return db
    .selectFrom(
      db
        .selectFrom('group_members')
        .innerJoin('chat_messages', 'chat_messages.group_id', 'group_members.group_id')
        .select('chat_messages.id')
        .where('group_members.user_id', '=', userId)
        .where('chat_messages.author_id', '!=', userId)
        .where('chat_messages.id', '>', (eb) =>
          eb.fn.coalesce(
            eb.selectFrom('chat_reads').select('chat_reads.last_read_message_id').whereRef('chat_reads.user_id', '=', 'group_members.user_id').whereRef('chat_reads.group_id', '=', 'group_members.group_id'),
            sql.lit(0),
          ),
        )
        .limit(fixedLimit(COUNT_CAP))
        .as('unread_messages'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'));
}

/** The user's unread messages in one group (`groupId` a reference to the outer query's group), up to COUNT_CAP. */
export function unreadInGroupQuery(db: Kysely<Database>, userId: number, groupId: Expression<number>) {
  return db
    .selectFrom(
      db
        .selectFrom('chat_messages')
        .select('chat_messages.id')
        .where('chat_messages.group_id', '=', groupId)
        .where('chat_messages.author_id', '!=', userId)
        .where('chat_messages.id', '>', (eb) =>
          eb.fn.coalesce(
            eb.selectFrom('chat_reads').select('chat_reads.last_read_message_id').where('chat_reads.user_id', '=', userId).where('chat_reads.group_id', '=', groupId),
            sql.lit(0),
          ),
        )
        .limit(fixedLimit(COUNT_CAP))
        .as('unread_messages'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'));
}

export interface ReadMark {
  userId: number;
  groupId: number;
  messageId: number;
}

export class ChatReads {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Moves a member's read mark up to `messageId`, never down, and only while they are a member:
   * the membership row supplies the pair, so a mark never outlives a removal that raced it.
   */
  async markRead({ userId, groupId, messageId }: ReadMark): Promise<void> {
    await this.db
      .insertInto('chat_reads')
      .columns(['user_id', 'group_id', 'last_read_message_id'])
      .expression(
        this.db
          .selectFrom('group_members')
          .select(['group_members.user_id', 'group_members.group_id', sql<number>`cast(${messageId} as integer)`.as('last_read_message_id')])
          .where('group_members.group_id', '=', groupId)
          .where('group_members.user_id', '=', userId),
      )
      .onConflict((conflict) =>
        conflict
          .columns(['user_id', 'group_id'])
          .doUpdateSet({ last_read_message_id: (eb) => eb.ref('excluded.last_read_message_id') })
          .where((eb) => eb('excluded.last_read_message_id', '>', eb.ref('chat_reads.last_read_message_id'))),
      )
      .execute();
  }
}

import { type Expression, type Kysely, sql } from 'kysely';
import { fixedLimit } from '../../../db/fixed-limit.js';
import type { Database } from '../../../db/schema.js';
import { isOneOf } from '../../../db/id-lists.js';
import type { Hub } from '../../../platform/hub/hub.js';
import { COUNT_CAP } from '../../../platform/navigation.js';
import type { Notifier } from '../../../services.js';

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

/** A member was shown a group's messages up to `messageId`, whose time is `at` (ms). */
export interface ReadMark {
  userId: number;
  groupId: number;
  messageId: number;
  at: number;
}

/** Mention notifications (ChatService.post): of this kind, linking to the group's chat, made at the message's time. */
export const MENTION_KIND = 'chat.mention';
export const chatPath = (groupId: number) => `/groups/${groupId}/chat/`;

/** What reading moved: the members whose unread chat messages went down, and those whose unread notifications did. */
export interface ReadOutcome {
  chat: number[];
  mentions: number[];
}

/**
 * Reading a group's messages: the members' read marks move up, their mentions in those messages
 * are read too (the bell agrees with the chat), and their open pages are told both.
 */
export class ChatReads {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly hub: Pick<Hub, 'publish'>,
    private readonly notifications: Notifier,
  ) {}

  /**
   * Reads these marks: per group and message, one statement for the read marks and one for the
   * mentions of all the members who read it. Tells the open pages after.
   */
  async read(marks: readonly ReadMark[]): Promise<ReadOutcome> {
    const batches = new Map<string, { groupId: number; messageId: number; at: number; userIds: number[] }>();
    for (const { userId, groupId, messageId, at } of marks) {
      const key = `${groupId}:${messageId}`;
      const batch = batches.get(key);
      if (batch) batch.userIds.push(userId);
      else batches.set(key, { groupId, messageId, at, userIds: [userId] });
    }
    const chat = new Set<number>();
    const mentions = new Set<number>();
    for (const { groupId, messageId, at, userIds } of batches.values()) {
      for (const userId of await this.markRead(groupId, userIds, messageId)) chat.add(userId);
      const read = await this.notifications.readAbout(this.db, userIds, { kind: MENTION_KIND, link: chatPath(groupId), upTo: at });
      for (const userId of read) mentions.add(userId);
    }
    if (chat.size > 0) this.hub.publish({ type: 'navigation.changed', userIds: [...chat] });
    this.notifications.announce([...mentions]);
    return { chat: [...chat], mentions: [...mentions] };
  }

  /**
   * Moves members' read marks up to `messageId`, never down, and only while they are members:
   * the membership rows supply the pairs, so a mark never outlives a removal that raced it. The
   * members whose mark moved.
   */
  async markRead(groupId: number, userIds: readonly number[], messageId: number): Promise<number[]> {
    const rows = await this.db
      .insertInto('chat_reads')
      .columns(['user_id', 'group_id', 'last_read_message_id'])
      .expression(
        this.db
          .selectFrom('group_members')
          .select(['group_members.user_id', 'group_members.group_id', sql<number>`cast(${messageId} as integer)`.as('last_read_message_id')])
          .where('group_members.group_id', '=', groupId)
          .where((eb) => isOneOf(this.db, eb.ref('group_members.user_id'), [...new Set(userIds)])),
      )
      .onConflict((conflict) =>
        conflict
          .columns(['user_id', 'group_id'])
          .doUpdateSet({ last_read_message_id: (eb) => eb.ref('excluded.last_read_message_id') })
          .where((eb) => eb('excluded.last_read_message_id', '>', eb.ref('chat_reads.last_read_message_id'))),
      )
      .returning('user_id')
      .execute();
    return rows.map((row) => row.user_id);
  }
}

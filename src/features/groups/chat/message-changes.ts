import type { ExpressionBuilder, Kysely } from 'kysely';
import { lockedForUpdate } from '../../../db/locks.js';
import type { Database } from '../../../db/schema.js';

/** How long after posting a message its author may edit or delete it. The group's owner deletes whenever. */
export const EDIT_WINDOW_MS = 15 * 60_000;

/** What a caller asks to do to a message. */
export type MessageChange = 'edit' | 'delete';

/** A message as an edit leaves it. */
export interface EditedRow {
  id: number;
  content: string;
  created_at: number;
  edited_at: number;
}

/**
 * Whether `callerId` may make `change` to the message at `now`: its author while still a member
 * of the group and within EDIT_WINDOW_MS of posting; for a delete also the group's owner,
 * whenever. A deleted message takes no change. It is part of the statement that makes the change, so
 * no removal, end of the window or delete can land between the check and the act.
 */
function changeableBy(callerId: number, change: MessageChange, now: number) {
  return (eb: ExpressionBuilder<Database, 'chat_messages'>) => {
    const byAuthor = eb.and([
      eb('chat_messages.author_id', '=', callerId),
      eb('chat_messages.created_at', '>', now - EDIT_WINDOW_MS),
      eb.exists(
        eb.selectFrom('group_members').select('group_members.user_id').whereRef('group_members.group_id', '=', 'chat_messages.group_id').where('group_members.user_id', '=', callerId),
      ),
    ]);
    const byOwner = eb.exists(eb.selectFrom('groups').select('groups.id').whereRef('groups.id', '=', 'chat_messages.group_id').where('groups.owner_id', '=', callerId));
    return eb.and([eb('chat_messages.deleted_at', 'is', null), change === 'edit' ? byAuthor : eb.or([byAuthor, byOwner])]);
  };
}

/**
 * Edits and deletes of chat messages, each decided and done by one statement scoped to the caller:
 * a message the caller may not change is the same miss as one that does not exist.
 */
export class MessageChanges {
  constructor(private readonly db: Kysely<Database>) {}

  /** The message if `callerId` may make `change` to it now: what the pages' forms show. Their POST decides again. */
  findChangeable(groupId: number, messageId: number, callerId: number, change: MessageChange, now = Date.now()): Promise<{ id: number; author: string; content: string } | undefined> {
    return this.db
      .selectFrom('chat_messages')
      .innerJoin('users', 'users.id', 'chat_messages.author_id')
      .select(['chat_messages.id', 'users.username as author', 'chat_messages.content'])
      .where('chat_messages.id', '=', messageId)
      .where('chat_messages.group_id', '=', groupId)
      .where(changeableBy(callerId, change, now))
      .executeTakeFirst();
  }

  /** Locks the message's row until the transaction ends (an If-Match is checked under it); false if it is not in the group. */
  async lock(groupId: number, messageId: number): Promise<boolean> {
    const query = this.db.selectFrom('chat_messages').select('chat_messages.id').where('chat_messages.id', '=', messageId).where('chat_messages.group_id', '=', groupId);
    return (await lockedForUpdate(this.db, query).executeTakeFirst()) !== undefined;
  }

  /** Replaces the content if `editorId` may edit the message now: the row as left, or undefined (refused and absent alike). */
  async edit(groupId: number, messageId: number, editorId: number, content: string, now = Date.now()): Promise<EditedRow | undefined> {
    const row = await this.db
      .updateTable('chat_messages')
      .set({ content, edited_at: now })
      .where('chat_messages.id', '=', messageId)
      .where('chat_messages.group_id', '=', groupId)
      .where(changeableBy(editorId, 'edit', now))
      .returning(['chat_messages.id', 'chat_messages.content', 'chat_messages.created_at'])
      .executeTakeFirst();
    return row && { ...row, edited_at: now };
  }

  /**
   * Deletes the message if `callerId` may: its content is emptied and the row stays, so the
   * history's ids stay continuous and the message shows as deleted in place. False if refused or absent.
   */
  async remove(groupId: number, messageId: number, callerId: number, now = Date.now()): Promise<boolean> {
    const row = await this.db
      .updateTable('chat_messages')
      .set({ content: '', deleted_at: now })
      .where('chat_messages.id', '=', messageId)
      .where('chat_messages.group_id', '=', groupId)
      .where(changeableBy(callerId, 'delete', now))
      .returning('chat_messages.id')
      .executeTakeFirst();
    return row !== undefined;
  }
}

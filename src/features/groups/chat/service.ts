import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Hub } from '../../../platform/hub/hub.js';
import type { ChatMessagePayload } from './events.js';
import type { Notifier } from '../../../services.js';
import { mentionedKeys, mentionedMembers } from './mentions.js';
import { ChatRepository, type StoredChatMessage } from './repository.js';

export const HISTORY_PAGE = 50;

export function toPayload(message: StoredChatMessage): ChatMessagePayload {
  return { message_id: message.id, author: message.author, content: message.content, timestamp: new Date(message.created_at).toISOString() };
}

/** Chat of a group. Callers have checked membership; delivery is the hub's business. */
export class ChatService {
  private readonly messages: ChatRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly hub: Hub,
    private readonly notifications: Notifier,
  ) {
    this.messages = new ChatRepository(db);
  }

  /** The latest page of a group's messages (before `beforeId`), oldest first, as `memberId` may read them: none for a non-member. */
  async history(groupId: number, memberId: number, beforeId?: number, limit = HISTORY_PAGE): Promise<ChatMessagePayload[]> {
    return (await this.messages.latest(groupId, memberId, limit, beforeId)).map(toPayload);
  }

  /**
   * Stores and publishes a message; null when the author is no longer a member. Members it
   * mentions (`@name`) are notified in the same transaction: a message without an `@` skips it.
   */
  async post(groupId: number, author: { id: number; username: string }, content: string): Promise<ChatMessagePayload | null> {
    const keys = mentionedKeys(content);
    const { stored, mentioned } =
      keys.length === 0
        ? { stored: await this.messages.insertIfMember(groupId, author.id, content), mentioned: [] }
        : await this.db.transaction().execute(async (trx) => {
            const inserted = await new ChatRepository(trx).insertIfMember(groupId, author.id, content);
            const members = inserted ? await mentionedMembers(trx, groupId, author.id, keys) : null;
            if (members) {
              await this.notifications.add(trx, members.ids, { kind: 'chat.mention', text: { key: 'notifications.chat_mention', values: { author: author.username, group: members.groupName } }, link: `/groups/${groupId}/chat/` });
            }
            return { stored: inserted, mentioned: members?.ids ?? [] };
          });
    if (!stored) return null;
    const message = toPayload({ id: stored.id, author: author.username, content, created_at: stored.created_at });
    this.hub.publish({ type: 'chat.message', groupId, message });
    this.notifications.announce(mentioned);
    return message;
  }
}

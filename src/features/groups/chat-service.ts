import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ChatMessagePayload, Hub } from '../../platform/hub/hub.js';
import { ChatRepository, type StoredChatMessage } from './chat-repository.js';

export const HISTORY_PAGE = 50;

export function toPayload(message: StoredChatMessage): ChatMessagePayload {
  return { message_id: message.id, author: message.author, content: message.content, timestamp: new Date(message.created_at).toISOString() };
}

/** Chat of a group. Callers have checked membership; delivery is the hub's business. */
export class ChatService {
  private readonly messages: ChatRepository;

  constructor(
    db: Kysely<Database>,
    private readonly hub: Hub,
  ) {
    this.messages = new ChatRepository(db);
  }

  /** The latest page of a group's messages (before `beforeId`), oldest first, as `memberId` may read them: none for a non-member. */
  async history(groupId: number, memberId: number, beforeId?: number, limit = HISTORY_PAGE): Promise<ChatMessagePayload[]> {
    return (await this.messages.latest(groupId, memberId, limit, beforeId)).map(toPayload);
  }

  /** Stores and publishes a message; null when the author is no longer a member. */
  async post(groupId: number, author: { id: number; username: string }, content: string): Promise<ChatMessagePayload | null> {
    const stored = await this.messages.insertIfMember(groupId, author.id, content);
    if (!stored) return null;
    const message = toPayload({ id: stored.id, author: author.username, content, created_at: stored.created_at });
    this.hub.publish({ type: 'chat.message', groupId, message });
    return message;
  }
}

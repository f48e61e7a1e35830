import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Hub } from '../../../platform/hub/hub.js';
import type { ChatMessagePayload } from './events.js';
import type { Notifier } from '../../../services.js';
import { MAX_ID } from '../../../platform/ids.js';
import { mentionedKeys, mentionedMembers } from './mentions.js';
import { MessageChanges } from './message-changes.js';
import { chatPath, MENTION_KIND } from './reads.js';
import { ChatRepository, type StoredChatMessage } from './repository.js';

export const HISTORY_PAGE = 50;

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toPayload(message: StoredChatMessage): ChatMessagePayload {
  return {
    message_id: message.id,
    author: message.author,
    content: message.content,
    timestamp: new Date(message.created_at).toISOString(),
    edited_at: isoOrNull(message.edited_at),
    deleted: message.deleted_at !== null,
  };
}

/** Chat of a group. Callers have checked membership; delivery is the hub's business. */
export class ChatService {
  private readonly messages: ChatRepository;
  private readonly changes: MessageChanges;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly hub: Hub,
    private readonly notifications: Notifier,
    /** Once the read marks of the members shown a new message in sight on this instance are written (ReadMarkWriter.settled). */
    private readonly readsWritten: () => Promise<void> = async () => {},
  ) {
    this.messages = new ChatRepository(db);
    this.changes = new MessageChanges(db);
  }

  /** The latest page of a group's messages (before `beforeId`), oldest first, as `memberId` may read them: none for a non-member. */
  async history(groupId: number, memberId: number, beforeId?: number, limit = HISTORY_PAGE): Promise<ChatMessagePayload[]> {
    return (await this.messages.latest(groupId, memberId, limit, beforeId)).map(toPayload);
  }

  /** One message of the group as `memberId` may read it (history's own scoped query); undefined otherwise. */
  async find(groupId: number, memberId: number, messageId: number): Promise<ChatMessagePayload | undefined> {
    // The latest message up to this id, if it is this one (no bound for the largest id, whose
    // successor PostgreSQL's integer column cannot compare).
    const [message] = await this.history(groupId, memberId, messageId < MAX_ID ? messageId + 1 : undefined, 1);
    return message?.message_id === messageId ? message : undefined;
  }

  /**
   * Stores and publishes a message; null when the author is no longer a member. Members it
   * mentions (`@name`) are notified in the same transaction (the notification made at the
   * message's time, so reading up to the message reads it: reads.ts), a message without an `@`
   * skips it. The other members' open pages are told their unread count moved.
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
              const text = { key: 'notifications.chat_mention', values: { author: author.username, group: members.groupName } } as const;
              await this.notifications.add(trx, members.ids, { kind: MENTION_KIND, text, link: chatPath(groupId) }, inserted!.created_at);
            }
            return { stored: inserted, mentioned: members?.ids ?? [] };
          });
    if (!stored) return null;
    const message = toPayload({ id: stored.id, author: author.username, content, created_at: stored.created_at, edited_at: null, deleted_at: null });
    // The message first: a chat open and in sight here reads it (its mark and its mention), and
    // the counts read for the pages told below find it read, rather than showing it for a moment.
    this.hub.publish({ type: 'chat.message', groupId, message });
    const others = await this.messages.otherMemberIds(groupId, author.id);
    await this.readsWritten();
    if (others.length > 0) this.hub.publish({ type: 'navigation.changed', userIds: others });
    this.notifications.announce(mentioned);
    return message;
  }

  /**
   * Replaces a message's content if the editor may (message-changes.ts: its author, a member,
   * within the window) and publishes the edit; null when refused or absent alike. `precondition`
   * (the API's If-Match) is given the message as the editor reads it, with its row locked, and may
   * throw to change nothing. Mentions added by an edit notify nobody: only a new message does.
   */
  async edit(groupId: number, editor: { id: number; username: string }, messageId: number, content: string, precondition?: (current: ChatMessagePayload) => void): Promise<ChatMessagePayload | null> {
    const edited = precondition
      ? await this.db.transaction().execute(async (trx) => {
          const changes = new MessageChanges(trx);
          if (!(await changes.lock(groupId, messageId))) return undefined;
          const current = await new ChatService(trx, this.hub, this.notifications).find(groupId, editor.id, messageId);
          if (!current) return undefined;
          precondition(current);
          return changes.edit(groupId, messageId, editor.id, content);
        })
      : await this.changes.edit(groupId, messageId, editor.id, content);
    if (!edited) return null;
    this.hub.publish({ type: 'chat.edited', groupId, edit: { message_id: edited.id, content: edited.content, edited_at: new Date(edited.edited_at).toISOString() } });
    return toPayload({ ...edited, author: editor.username, deleted_at: null });
  }

  /** Deletes a message if the caller may (its author within the window, or the group's owner) and publishes it; false when refused or absent alike. */
  async remove(groupId: number, callerId: number, messageId: number): Promise<boolean> {
    if (!(await this.changes.remove(groupId, messageId, callerId))) return false;
    this.hub.publish({ type: 'chat.deleted', groupId, messageId });
    return true;
  }
}

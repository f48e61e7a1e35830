// The hub events the chat sends, and the message as every client sees it.

/** A chat message as every client sees it, in history and live. */
export interface ChatMessagePayload {
  message_id: number;
  author: string;
  /** Empty once deleted. */
  content: string;
  /** ISO 8601, UTC. */
  timestamp: string;
  /** When its author last edited it, ISO 8601 UTC; null if never. */
  edited_at: string | null;
  /** Deleted: shown as "message deleted" in its place. */
  deleted: boolean;
}

/** An edit as every client hears it: the `edited` frame's fields. */
export interface ChatEditPayload {
  message_id: number;
  content: string;
  /** ISO 8601, UTC. */
  edited_at: string;
}

declare module '../../../platform/hub/hub.js' {
  interface HubEvents {
    /** A message was posted: every member's socket of the group gets it. */
    'chat.message': { groupId: number; message: ChatMessagePayload };
    /** A message was edited by its author: every socket of the group gets the new content. */
    'chat.edited': { groupId: number; edit: ChatEditPayload };
    /** A message was deleted, by its author or the group's owner: every socket of the group hears it. */
    'chat.deleted': { groupId: number; messageId: number };
  }
}

// The hub event the chat sends, and the message as every client sees it.

/** A chat message as every client sees it, in history and live. */
export interface ChatMessagePayload {
  message_id: number;
  author: string;
  content: string;
  /** ISO 8601, UTC. */
  timestamp: string;
}

declare module '../../../platform/hub/hub.js' {
  interface HubEvents {
    /** A message was posted: every member's socket of the group gets it. */
    'chat.message': { groupId: number; message: ChatMessagePayload };
  }
}

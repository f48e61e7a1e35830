import type { WebSocket } from 'ws';
import { pingOrDrop } from '../../../platform/hub/websocket.js';
import type { Hub, HubEvent } from '../../../platform/hub/hub.js';
import type { ChatMessagePayload } from './events.js';
import { TokenBucket } from '../../../platform/rate-limit.js';
import type { ReadMarkWriter } from './read-marks.js';
import { addTo, removeFrom } from '../../../platform/hub/socket-index.js';

/** Closed for a reason of access: removed from the group, group deleted, session ended. */
export const CLOSE_NO_ACCESS = 4403;
/**
 * Messages held for a socket until its history is sent (a set-up of a few milliseconds, unless the
 * database is slow): past this the socket is cut, and the client reconnects and reads them as history.
 */
export const MAX_PENDING = 200;
/** A client that reads slower than the group writes is cut off rather than buffered without end. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface ChatConnection {
  readonly socket: WebSocket;
  readonly groupId: number;
  readonly userId: number;
  readonly sessionKey: string;
  readonly bucket: TokenBucket;
  /** Answered the last ping (or sent something) since it was sent. */
  alive: boolean;
  /**
   * The page is in sight (the client says so: `?visible=0` on the handshake, then
   * `{"type":"visibility","visible":...}` frames): only then are messages shown to it read.
   */
  visible: boolean;
  /** The newest message sent while out of sight: read once the page is in sight again. */
  unseen: { messageId: number; at: number } | null;
  /**
   * Live frames that arrive while history is being sent, in order; null once it was sent. `id` is
   * that of a new message (an edit or a delete has none: it applies to whichever copy is shown).
   */
  pending: { id?: number; at?: number; data: Buffer }[] | null;
  /** Frames of one connection are handled one after another, in order. */
  queue: Promise<void>;
}

export interface ConnectionOptions {
  rateBurst: number;
  ratePerSecond: number;
  pingIntervalMs: number;
  /**
   * Of these connections, those that lost access (session ended, membership gone), checked
   * against the database every ping interval: a safety net for events missed while Redis was away.
   */
  lostAccess?: (connections: ChatConnection[]) => Promise<ChatConnection[]>;
  /** Where the messages each member was shown in sight are noted, to move their read marks. */
  readMarks?: ReadMarkWriter;
  onError?: (error: unknown) => void;
}

/**
 * The chat sockets of this instance, by group and by session. It listens to the hub: chat
 * messages go to the group's sockets, access changes close the affected ones (4403).
 */
export class ChatConnections {
  private readonly byGroup = new Map<number, Set<ChatConnection>>();
  private readonly bySession = new Map<string, Set<ChatConnection>>();
  private readonly unsubscribe: () => void;
  private readonly pinger: NodeJS.Timeout;
  private checking = false;

  constructor(
    hub: Hub,
    private readonly options: ConnectionOptions,
  ) {
    this.unsubscribe = hub.subscribe((event) => this.onEvent(event));
    this.pinger = setInterval(() => {
      pingOrDrop(this.byGroup.values());
      void this.closeLostAccess();
    }, options.pingIntervalMs);
    this.pinger.unref();
  }

  add(socket: WebSocket, { visible = true, ...who }: { groupId: number; userId: number; sessionKey: string; visible?: boolean }): ChatConnection {
    const connection: ChatConnection = {
      socket,
      ...who,
      bucket: new TokenBucket(this.options.rateBurst, this.options.ratePerSecond),
      alive: true,
      visible,
      unseen: null,
      pending: [],
      queue: Promise.resolve(),
    };
    addTo(this.byGroup, who.groupId, connection);
    addTo(this.bySession, who.sessionKey, connection);
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('close', () => {
      removeFrom(this.byGroup, who.groupId, connection);
      removeFrom(this.bySession, who.sessionKey, connection);
    });
    return connection;
  }

  /**
   * Sends the history, then what arrived since the socket was registered, as messages. A message
   * that arrived meanwhile and is in the history too (stored before the history was read) is sent
   * once, as a message: whoever was connected when it was posted hears it live, however long the
   * socket's own set-up took.
   */
  sendHistory(connection: ChatConnection, history: ChatMessagePayload[]): void {
    const pending = connection.pending ?? [];
    connection.pending = null;
    const live = new Set(pending.flatMap((item) => (item.id === undefined ? [] : [item.id])));
    for (const message of history) {
      if (!live.has(message.message_id)) this.send(connection, Buffer.from(JSON.stringify({ type: 'history', ...message })), true);
    }
    for (const item of pending) this.send(connection, item.data);
    // Opening the chat reads it (in sight): the newest message it was sent, history or live.
    const sent = [
      ...history.map((message) => ({ messageId: message.message_id, at: Date.parse(message.timestamp) })),
      ...pending.flatMap((item) => (item.id === undefined || item.at === undefined ? [] : [{ messageId: item.id, at: item.at }])),
    ];
    const newest = sent.reduce<(typeof sent)[number] | null>((best, next) => (!best || next.messageId > best.messageId ? next : best), null);
    if (newest) this.shown(connection, newest);
  }

  /** The page says whether it is in sight: back in sight, what it was sent meanwhile is read. */
  setVisible(connection: ChatConnection, visible: boolean): void {
    connection.visible = visible;
    if (visible && connection.unseen) {
      const unseen = connection.unseen;
      connection.unseen = null;
      this.shown(connection, unseen);
    }
  }

  /** The connection was sent the messages up to this one: read if in sight, else kept for when it is. */
  private shown(connection: ChatConnection, newest: { messageId: number; at: number }): void {
    if (connection.visible) {
      this.options.readMarks?.seen({ userId: connection.userId, groupId: connection.groupId, ...newest });
    } else if (!connection.unseen || newest.messageId > connection.unseen.messageId) {
      connection.unseen = newest;
    }
  }

  close(): void {
    clearInterval(this.pinger);
    this.unsubscribe();
  }

  /** Whether it was sent. */
  private send(connection: ChatConnection, data: Buffer, force = false): boolean {
    const { socket } = connection;
    if (socket.readyState !== socket.OPEN) return false;
    if (!force && connection.pending) return false;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.terminate();
      return false;
    }
    socket.send(data, { binary: false });
    return true;
  }

  private onEvent(event: HubEvent): void {
    switch (event.type) {
      case 'chat.message': {
        const sockets = this.byGroup.get(event.groupId);
        if (!sockets) return;
        // Encoded once for the whole group, not once per socket.
        const data = Buffer.from(JSON.stringify({ type: 'message', ...event.message }));
        const shown = { messageId: event.message.message_id, at: Date.parse(event.message.timestamp) };
        for (const connection of sockets) {
          if (connection.pending && connection.pending.length >= MAX_PENDING) connection.socket.terminate();
          else if (connection.pending) connection.pending.push({ id: shown.messageId, at: shown.at, data });
          else if (this.send(connection, data)) this.shown(connection, shown);
        }
        return;
      }
      case 'chat.edited':
        this.sendToGroup(event.groupId, { type: 'edited', ...event.edit });
        return;
      case 'chat.deleted':
        this.sendToGroup(event.groupId, { type: 'deleted', message_id: event.messageId });
        return;
      case 'group.members_removed': {
        const removed = new Set(event.userIds);
        for (const connection of this.byGroup.get(event.groupId) ?? []) {
          if (removed.has(connection.userId)) connection.socket.close(CLOSE_NO_ACCESS, 'No longer a member of this group');
        }
        return;
      }
      case 'group.deleted':
        for (const connection of this.byGroup.get(event.groupId) ?? []) connection.socket.close(CLOSE_NO_ACCESS, 'The group was deleted');
        return;
      case 'sessions.ended':
        for (const key of event.sessionKeys) {
          for (const connection of this.bySession.get(key) ?? []) connection.socket.close(CLOSE_NO_ACCESS, 'Your session ended');
        }
        return;
    }
  }

  /**
   * A change to a message already posted, to every socket of the group. One still being set up
   * gets it after its history: applied to the history's copy, or again to one already up to date.
   */
  private sendToGroup(groupId: number, frame: object): void {
    const sockets = this.byGroup.get(groupId);
    if (!sockets) return;
    const data = Buffer.from(JSON.stringify(frame));
    for (const connection of sockets) {
      if (connection.pending && connection.pending.length >= MAX_PENDING) connection.socket.terminate();
      else if (connection.pending) connection.pending.push({ data });
      else this.send(connection, data);
    }
  }

  private async closeLostAccess(): Promise<void> {
    if (!this.options.lostAccess || this.checking) return;
    this.checking = true;
    try {
      const all = [...this.byGroup.values()].flatMap((set) => [...set]);
      for (const connection of await this.options.lostAccess(all)) connection.socket.close(CLOSE_NO_ACCESS, 'Access ended');
    } catch (error) {
      this.options.onError?.(error);
    } finally {
      this.checking = false;
    }
  }
}

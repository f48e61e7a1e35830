import type { WebSocket } from 'ws';
import { pingOrDrop } from '../../platform/hub/websocket.js';
import type { Hub, HubEvent } from '../../platform/hub/hub.js';
import { addTo, removeFrom } from '../../platform/hub/socket-index.js';

/** Closed because the session ended (logout, password change, deactivation): as chat does. */
export const CLOSE_NO_ACCESS = 4403;
/** Policy violation: the client sent frames; this socket only speaks. */
const CLOSE_POLICY = 1008;
/** Frames a client may send (the protocol has none) before its socket is closed. */
const MAX_CLIENT_FRAMES = 10;
/** A client that does not read its counts is cut off rather than buffered without end. */
const MAX_BUFFERED_BYTES = 64 * 1024;

export interface SocketLimits {
  /** Open bell sockets per user on this instance (one per open tab). */
  perUser: number;
  /** Open bell sockets on this instance. */
  total: number;
  pingIntervalMs: number;
}

export interface BellSocket {
  readonly socket: WebSocket;
  readonly userId: number;
  readonly sessionKey: string;
  alive: boolean;
  framesReceived: number;
  /** What this socket was last told: a frame goes only when it would say something new. */
  sent: { unread?: number; counts?: string };
}

/** A user's counts as a page shows them: the bell's unread notifications, and the navigation's other counts by link (`/chat/`). */
export interface LiveCounts {
  unread: number;
  links: Record<string, number>;
}

export interface BellSocketsOptions extends SocketLimits {
  /** The counts of these users, read now (bounded like the session's). */
  counts: (userIds: number[]) => Promise<Map<number, LiveCounts>>;
  /** Of these session keys, the ones still live: a safety net for missed `sessions.ended` events. */
  liveKeys: (keys: string[]) => Promise<Set<string>>;
  onError: (error: unknown) => void;
}

const LIVE_KEYS_CHUNK = 500;

/**
 * The bell sockets of this instance, by user and by session: every page's one socket, for the
 * bell's count and the navigation's others (the chat's unread messages). It listens to the hub: a
 * `notifications.changed` or `navigation.changed` naming a user connected here reads that user's
 * counts once and sends what moved to all their sockets (`{"type":"unread","count":N}` for the
 * bell, `{"type":"counts","counts":{"/chat/":N}}` for the others); an ended session closes its
 * sockets (4403).
 */
export class BellSockets {
  private readonly byUser = new Map<number, Set<BellSocket>>();
  private readonly bySession = new Map<string, Set<BellSocket>>();
  private size = 0;
  /** Users whose count is being read, and those to read again once it is (a change came meanwhile). */
  private readonly reading = new Set<number>();
  private readonly stale = new Set<number>();
  private readonly unsubscribe: () => void;
  private readonly pinger: NodeJS.Timeout;
  private checking = false;

  constructor(
    hub: Hub,
    private readonly options: BellSocketsOptions,
  ) {
    this.unsubscribe = hub.subscribe((event) => this.onEvent(event));
    this.pinger = setInterval(() => {
      pingOrDrop(this.byUser.values());
      void this.closeEndedSessions();
    }, options.pingIntervalMs);
    this.pinger.unref();
  }

  /** Why a new socket for this user would be refused, or null when there is room for it. */
  refusal(userId: number): 'user' | 'total' | null {
    if (this.size >= this.options.total) return 'total';
    if ((this.byUser.get(userId)?.size ?? 0) >= this.options.perUser) return 'user';
    return null;
  }

  add(socket: WebSocket, who: { userId: number; sessionKey: string }): BellSocket {
    const bell: BellSocket = { socket, ...who, alive: true, framesReceived: 0, sent: {} };
    addTo(this.byUser, who.userId, bell);
    addTo(this.bySession, who.sessionKey, bell);
    this.size += 1;
    socket.on('pong', () => {
      bell.alive = true;
    });
    socket.on('message', () => {
      bell.alive = true;
      bell.framesReceived += 1;
      if (bell.framesReceived > MAX_CLIENT_FRAMES) socket.close(CLOSE_POLICY, 'This socket does not take messages');
    });
    socket.on('close', () => {
      removeFrom(this.byUser, who.userId, bell);
      removeFrom(this.bySession, who.sessionKey, bell);
      this.size -= 1;
    });
    return bell;
  }

  /**
   * Reads the user's counts and sends them to this socket alone (just opened: the others know them).
   * Counts of one user are read one at a time, so an older read never lands after a newer one.
   */
  greet(bell: BellSocket): void {
    this.read([bell.userId], (_userId, counts) => this.tell(bell, counts));
  }

  /** Reads these users' counts and sends what moved to all their sockets here. */
  refresh(userIds: readonly number[]): void {
    this.read(
      userIds.filter((userId) => this.byUser.has(userId)),
      (userId, counts) => {
        for (const bell of this.byUser.get(userId) ?? []) this.tell(bell, counts);
      },
    );
  }

  /** A user whose count is being read is marked stale instead, and read again (for all their sockets) after. */
  private read(userIds: number[], deliver: (userId: number, counts: LiveCounts) => void): void {
    const now: number[] = [];
    for (const userId of userIds) {
      if (this.reading.has(userId)) this.stale.add(userId);
      else now.push(userId);
    }
    if (now.length === 0) return;
    for (const userId of now) this.reading.add(userId);
    this.options
      .counts(now)
      .then((counts) => {
        for (const [userId, count] of counts) deliver(userId, count);
      })
      .catch(this.options.onError)
      .finally(() => {
        for (const userId of now) this.reading.delete(userId);
        const again = now.filter((userId) => this.stale.delete(userId));
        if (again.length > 0) this.refresh(again);
      });
  }

  close(): void {
    clearInterval(this.pinger);
    this.unsubscribe();
  }

  /** Sends the socket the counts it has not been told yet: the bell's, then the others'. */
  private tell(bell: BellSocket, { unread, links }: LiveCounts): void {
    if (bell.sent.unread !== unread) {
      bell.sent.unread = unread;
      this.send(bell.socket, JSON.stringify({ type: 'unread', count: unread }));
    }
    const counts = JSON.stringify(links);
    if (bell.sent.counts !== counts) {
      bell.sent.counts = counts;
      this.send(bell.socket, `{"type":"counts","counts":${counts}}`);
    }
  }

  private send(socket: WebSocket, data: string): void {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) socket.terminate();
    else socket.send(data);
  }

  private onEvent(event: HubEvent): void {
    if (event.type === 'notifications.changed' || event.type === 'navigation.changed') this.refresh(event.userIds);
    else if (event.type === 'sessions.ended') {
      for (const key of event.sessionKeys) {
        for (const bell of this.bySession.get(key) ?? []) bell.socket.close(CLOSE_NO_ACCESS, 'Your session ended');
      }
    }
  }

  /** Every interval: sockets whose session is gone are closed, in case the event was missed (Redis away). */
  private async closeEndedSessions(): Promise<void> {
    if (this.checking || this.bySession.size === 0) return;
    this.checking = true;
    try {
      const keys = [...this.bySession.keys()];
      for (let start = 0; start < keys.length; start += LIVE_KEYS_CHUNK) {
        const chunk = keys.slice(start, start + LIVE_KEYS_CHUNK);
        const live = await this.options.liveKeys(chunk);
        for (const key of chunk) {
          if (live.has(key)) continue;
          for (const bell of this.bySession.get(key) ?? []) bell.socket.close(CLOSE_NO_ACCESS, 'Your session ended');
        }
      }
    } catch (error) {
      this.options.onError(error);
    } finally {
      this.checking = false;
    }
  }
}

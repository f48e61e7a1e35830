import { type MessageKey, translator } from '../../platform/i18n/index.js';
import type { WebSocket } from 'ws';
import type { Hub, HubEvent } from '../../platform/hub/hub.js';
import type { LiveItemRow, LiveListRef, LiveListSummary } from './live-events.js';
import { pingOrDrop } from '../../platform/hub/websocket.js';
import type { ViewContext } from '../../platform/views/context.js';
import type { ListRole } from './kind.js';
import { addTo, removeFrom } from '../../platform/hub/socket-index.js';

/** Closed for a reason of access (share removed, list deleted, session ended): as chat does. */
export const CLOSE_NO_ACCESS = 4403;
/** Policy violation: the client sent frames; these sockets only speak. */
const CLOSE_POLICY = 1008;
const MAX_CLIENT_FRAMES = 10;
const DELETED_FRAME = JSON.stringify({ type: 'deleted' });
/** A client that does not read its updates is cut off rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Users per access query and session keys per liveness query: within both databases' parameter limits. */
const CHUNK = 500;

/**
 * What an item row is rendered with for a live update: one rendering serves the viewers of a role,
 * time zone and language, so its forms carry no CSRF token (the page's script fills in its own,
 * public/js/live-list.js) and its user is no one but their time zone.
 */
export function liveViewContext(timezone: string, viewerLanguage = 'en'): ViewContext {
  const { language, t } = translator(viewerLanguage);
  return { user: { id: 0, username: '', email: '', timezone, isAdmin: false }, navigation: [], path: '', csrfToken: () => '', takeMessages: () => [], language, t };
}

export interface LiveViewer {
  userId: number;
  sessionKey: string;
  role: ListRole;
  /** The viewer's time zone: a to-do item's "overdue" depends on the reader's today. */
  timezone: string;
  /** The language of the viewer's page (the catalogue's): a row's words and numbers are in it. */
  language?: string;
}

export interface LiveSocket extends LiveViewer {
  readonly socket: WebSocket;
  readonly list: LiveListRef;
  alive: boolean;
  framesReceived: number;
}

/** What differs between to-do and shopping lists: who may see a list, and how an item looks. */
export interface LiveListKind {
  name: LiveListRef['kind'];
  /** Kinds with groups (both): a group's members read their lists, so group events concern them. */
  hasGroups: boolean;
  roleOf(userId: number, listId: number): Promise<ListRole | undefined>;
  /** The roles of these users on the list, in one query; a user it leaves out may not see it. */
  rolesOn(listId: number, userIds: number[]): Promise<Map<number, ListRole>>;
  /** The item's row, as the list page renders it for such a viewer (form tokens left empty), with what it needs of its list from `summary`. */
  renderItem(item: LiveItemRow, viewer: Pick<LiveViewer, 'role' | 'timezone' | 'language'>, summary: LiveListSummary): string;
  /** The list's summary as such a viewer's page words it: the counts after the heading, the total's element. */
  renderSummary(summary: LiveListSummary, viewer: Pick<LiveViewer, 'language'>): { counts?: string; html?: string };
}

export interface LiveSocketOptions {
  kind: LiveListKind;
  /** Open list sockets per user on this instance (one per open tab), and per list. */
  perUser: number;
  perList: number;
  pingIntervalMs: number;
  /** Of these session keys, the live ones: the sweep's safety net for missed `sessions.ended`. */
  liveKeys: (keys: string[]) => Promise<Set<string>>;
  onError: (error: unknown) => void;
}

const keyOf = (list: LiveListRef) => `${list.kind}:${list.id}`;

/**
 * The list sockets of one kind on this instance, by list, user and session. It listens to the hub: an item
 * event is rendered once per (role, time zone, language) and sent to the list's sockets; an access
 * event re-checks the list's sockets and closes those that lost it (4403); a deletion tells them
 * (`{"type":"deleted"}`) before closing them (4403 too).
 */
export class LiveListSockets {
  private readonly byList = new Map<string, Set<LiveSocket>>();
  private readonly byUser = new Map<number, Set<LiveSocket>>();
  private readonly bySession = new Map<string, Set<LiveSocket>>();
  private readonly unsubscribe: () => void;
  private readonly pinger: NodeJS.Timeout;
  private sweeping = false;

  constructor(
    hub: Hub,
    private readonly options: LiveSocketOptions,
  ) {
    this.unsubscribe = hub.subscribe((event) => this.onEvent(event));
    this.pinger = setInterval(() => {
      pingOrDrop(this.byList.values());
      void this.sweep();
    }, options.pingIntervalMs);
    this.pinger.unref();
  }

  /** Why a new socket would be refused, or null when there is room for it. */
  refusal(userId: number, list: LiveListRef): MessageKey | null {
    if ((this.byUser.get(userId)?.size ?? 0) >= this.options.perUser) return 'lists.live_too_many_tabs';
    if ((this.byList.get(keyOf(list))?.size ?? 0) >= this.options.perList) return 'lists.live_too_many_viewers';
    return null;
  }

  add(socket: WebSocket, list: LiveListRef, viewer: LiveViewer): LiveSocket {
    const live: LiveSocket = { socket, list, ...viewer, alive: true, framesReceived: 0 };
    addTo(this.byList, keyOf(list), live);
    addTo(this.byUser, viewer.userId, live);
    addTo(this.bySession, viewer.sessionKey, live);
    socket.on('pong', () => {
      live.alive = true;
    });
    socket.on('message', () => {
      live.alive = true;
      live.framesReceived += 1;
      if (live.framesReceived > MAX_CLIENT_FRAMES) socket.close(CLOSE_POLICY, 'This socket does not take messages');
    });
    socket.on('close', () => {
      removeFrom(this.byList, keyOf(list), live);
      removeFrom(this.byUser, viewer.userId, live);
      removeFrom(this.bySession, viewer.sessionKey, live);
    });
    return live;
  }

  close(): void {
    clearInterval(this.pinger);
    this.unsubscribe();
  }

  /**
   * Each socket's access read again: closed when the list is hidden now, told to reload when its
   * role changed (its buttons are wrong). One query per list (per 500 of its viewers).
   */
  async recheck(sockets: LiveSocket[]): Promise<void> {
    const byList = new Map<number, LiveSocket[]>();
    for (const live of sockets) byList.set(live.list.id, [...(byList.get(live.list.id) ?? []), live]);
    for (const [listId, viewers] of byList) {
      const userIds = [...new Set(viewers.map((live) => live.userId))];
      for (let start = 0; start < userIds.length; start += CHUNK) {
        const chunk = new Set(userIds.slice(start, start + CHUNK));
        const roles = await this.options.kind.rolesOn(listId, [...chunk]);
        for (const live of viewers) if (chunk.has(live.userId)) this.applyRole(live, roles.get(live.userId));
      }
    }
  }

  private applyRole(live: LiveSocket, role: ListRole | undefined): void {
    if (role === undefined) {
      live.socket.close(CLOSE_NO_ACCESS, 'You can no longer see this list');
    } else if (role !== live.role) {
      live.role = role;
      this.send(live, JSON.stringify({ type: 'reload', reason: 'Your permission on this list changed.' }));
    }
  }

  private send(live: LiveSocket, data: string): void {
    const { socket } = live;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) socket.terminate();
    else socket.send(data);
  }

  private onEvent(event: HubEvent): void {
    if ('list' in event && event.list.kind !== this.options.kind.name) return;
    switch (event.type) {
      case 'list.item': {
        const sockets = this.byList.get(keyOf(event.list));
        if (!sockets) return;
        // Rendered once per kind of viewer, not once per socket; the currency is the list's, the same for all.
        const frames = new Map<string, string>();
        for (const live of sockets) {
          const viewerKey = `${live.role}|${live.timezone}|${live.language ?? 'en'}`;
          let data = frames.get(viewerKey);
          if (data === undefined) {
            const html = this.options.kind.renderItem(event.item, live, event.summary);
            data = JSON.stringify({ type: 'item', id: event.item.id, html, summary: this.summaryFor(event.summary, live) });
            frames.set(viewerKey, data);
          }
          this.send(live, data);
        }
        return;
      }
      case 'list.item_removed': {
        // The summary's words and total: once per language.
        const frames = new Map<string, string>();
        for (const live of this.byList.get(keyOf(event.list)) ?? []) {
          const viewerKey = live.language ?? 'en';
          let data = frames.get(viewerKey);
          if (data === undefined) {
            data = JSON.stringify({ type: 'removed', id: event.itemId, summary: this.summaryFor(event.summary, live) });
            frames.set(viewerKey, data);
          }
          this.send(live, data);
        }
        return;
      }
      case 'list.access_changed':
        this.checkLater([...(this.byList.get(keyOf(event.list)) ?? [])]);
        return;
      case 'list.deleted':
        // Said before the close, so that the page tells a deletion from a lost share.
        for (const live of [...(this.byList.get(keyOf(event.list)) ?? [])]) {
          this.send(live, DELETED_FRAME);
          live.socket.close(CLOSE_NO_ACCESS, 'This list was deleted');
        }
        return;
      case 'group.members_removed':
        if (!this.options.kind.hasGroups) return;
        // The members' sockets, and those on the lists they took out of the group (the other members').
        this.checkLater([
          ...new Set([
            ...event.userIds.flatMap((userId) => [...(this.byUser.get(userId) ?? [])]),
            ...(event.unshared ?? []).flatMap((object) => (object.kind === this.options.kind.name ? [...(this.byList.get(keyOf({ kind: this.options.kind.name, id: object.id })) ?? [])] : [])),
          ]),
        ]);
        return;
      case 'group.deleted':
        // Rare: every socket here is checked rather than keeping each list's group.
        if (this.options.kind.hasGroups) this.checkLater([...this.byList.values()].flatMap((set) => [...set]));
        return;
      case 'sessions.ended':
        for (const key of event.sessionKeys) {
          for (const live of this.bySession.get(key) ?? []) live.socket.close(CLOSE_NO_ACCESS, 'Your session ended');
        }
        return;
    }
  }

  /** The counts and total of the frame, worded for the viewer's page. */
  private summaryFor(summary: LiveListSummary, viewer: LiveViewer) {
    return { items: summary.items, open: summary.open, ...this.options.kind.renderSummary(summary, viewer) };
  }

  private checkLater(sockets: LiveSocket[]): void {
    if (sockets.length === 0) return;
    this.recheck(sockets).catch(this.options.onError);
  }

  /** Every ping interval: ended sessions and lost access closed, in case an event was missed (Redis away). */
  private async sweep(): Promise<void> {
    if (this.sweeping || this.bySession.size === 0) return;
    this.sweeping = true;
    try {
      const keys = [...this.bySession.keys()];
      for (let start = 0; start < keys.length; start += CHUNK) {
        const chunk = keys.slice(start, start + CHUNK);
        const live = await this.options.liveKeys(chunk);
        for (const key of chunk) {
          if (live.has(key)) continue;
          for (const entry of this.bySession.get(key) ?? []) entry.socket.close(CLOSE_NO_ACCESS, 'Your session ended');
        }
      }
      await this.recheck([...this.byList.values()].flatMap((set) => [...set]));
    } catch (error) {
      this.options.onError(error);
    } finally {
      this.sweeping = false;
    }
  }
}

import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { Dialect } from './db/database.js';
import type { Database } from './db/schema.js';
import type { BackgroundJobs } from './platform/background.js';
import type { Hub } from './platform/hub/hub.js';
import type { SessionStore } from './platform/chain/session.js';
import type { Outbox } from './platform/mail/outbox.js';
import type { ObjectKinds } from './platform/object-kinds.js';
import type { MessageKey } from './platform/i18n/index.js';

/** What features are built from: passed down explicitly, never imported as globals. */
export interface Services {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  sessions: SessionStore;
  /** Real-time events to this and every other instance (chat, removals, ended sessions). */
  hub: Hub;
  /** Mail to send: queued here, sent in the background, never by the request that queued it. */
  outbox: Outbox;
  /** In-app notifications, written in the caller's transaction and announced live after it (features/notifications). */
  notifications: Notifier;
  /** Loops beside the server (reminders), started once it listens and stopped when it closes. */
  background: BackgroundJobs;
  /** The kinds of object people share (notes, lists), each registered once by its feature: chat's cards and the group page read them. */
  objectKinds: ObjectKinds;
}

/** What a notification says: features choose the kind, the words and where it points. */
export interface NewNotification {
  /** `reminder`, `group.added`, `list.shared`... */
  kind: string;
  /**
   * The words: a catalogue key with its values, shown in each reader's language (and kept in
   * English as `text` too), or text already in the recipient's language (a reminder's mail words).
   */
  text: string | { key: MessageKey; values?: Record<string, string | number> };
  /** A same-site path to what it is about. */
  link?: string;
}

/**
 * Sends in-app notifications, for any feature: the notifications feature keeps them and counts
 * them; the others are given this, and never reach into that feature.
 */
export interface Notifier {
  /** Queues one notification per user, in `db` (the caller's transaction): never lost nor doubled. */
  add(db: Kysely<Database>, userIds: readonly number[], notification: NewNotification, now?: number): Promise<void>;
  /** Tells these users' open pages, here and on every other instance, that their unread count moved. Call after commit. */
  announce(userIds: readonly number[]): void;
}

import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { Dialect } from './db/database.js';
import type { Database } from './db/schema.js';
import type { BackgroundJobs } from './platform/background.js';
import type { Hub } from './platform/hub/hub.js';
import type { SessionStore } from './platform/chain/session.js';
import type { Outbox } from './platform/mail/outbox.js';
import type { ObjectKinds } from './platform/object-kinds.js';
import type { Notifications } from './features/notifications/notifications.js';

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
  /** In-app notifications, written in the caller's transaction and announced live after it. */
  notifications: Notifications;
  /** Loops beside the server (reminders), started once it listens and stopped when it closes. */
  background: BackgroundJobs;
  /** The kinds of object people share (notes, lists), each registered once by its feature: chat's cards and the group page read them. */
  objectKinds: ObjectKinds;
}

import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { BackgroundJobs } from './background.js';
import type { Hub } from './hub/hub.js';
import type { LinkCards } from './link-cards.js';
import type { SessionStore } from './chain/session.js';
import type { Outbox } from './mail/outbox.js';
import type { ActivityObjects } from './activity.js';
import type { GroupShelf } from './group-shelf.js';
import type { Notifications } from './notifications.js';

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
  /** How each feature's objects show in group activity (registered by the features), read by the group page. */
  activity: ActivityObjects;
  /** Loops beside the server (reminders), started once it listens and stopped when it closes. */
  background: BackgroundJobs;
  /** Kinds of this site's objects a chat link can show as a card: each feature registers its own. */
  linkCards: LinkCards;
  /** Kinds of object shared with a group, listed on the group page: each feature registers its own. */
  groupShelf: GroupShelf;
}

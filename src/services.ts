import type { Compilable, Expression, Kysely, SelectQueryBuilder, SqlBool } from 'kysely';
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
  /**
   * Mailed too, in the transaction, to those recipients who chose so on their account
   * (`users.mail_notifications`) and have an address: its words in their language and its link.
   */
  mail?: boolean;
}

/**
 * A notification that others of its kind merge into: several things one person shares with a
 * group within a while are one "Olga shared 3 notes with Family".
 */
export interface MergingNotification {
  kind: string;
  /** A recipient's unread notification with this key, made in the last MERGE_WINDOW_MS, takes the new one in: its count goes up. */
  mergeKey: string;
  /** What one says, and where it points. */
  one: { text: MergingWords; link: string };
  /** What several say (their number is put in as `count`), and where they point. */
  many: { text: MergingWords; link: string };
}

/**
 * A catalogue key with its values: a string or number is put in as it is (a `select`'s choice),
 * an expression is the statement's (a name read in it, or what a person typed, as a parameter),
 * so that what people typed never mixes with the catalogue's words.
 */
export interface MergingWords {
  key: MessageKey;
  values: Record<string, string | number | Expression<string | null>>;
}

/** The user ids of a statement's rows, as `user_id`: whom to tell. */
export type Recipients = SelectQueryBuilder<Database, keyof Database, { user_id: number }>;

/**
 * Sends in-app notifications, for any feature: the notifications feature keeps them and counts
 * them; the others are given this, and never reach into that feature.
 */
export interface Notifier {
  /** Queues one notification per user, in `db` (the caller's transaction): never lost nor doubled. */
  add(db: Kysely<Database>, userIds: readonly number[], notification: NewNotification, now?: number): Promise<void>;
  /** Tells these users' open pages, here and on every other instance, that their unread count moved. Call after commit. */
  announce(userIds: readonly number[]): void;
  /**
   * Marks read, in `db`, these users' unread notifications of `kind` pointing at `link` made at
   * `upTo` or before (a chat's mentions, once its messages are read); the users whose count moved.
   */
  readAbout(db: Kysely<Database>, userIds: readonly number[], about: { kind: string; link: string; upTo: number }, now?: number): Promise<number[]>;
  /**
   * Tells `recipients` in `db` (the caller's transaction), each in their recent unread notification
   * of the same key when they have one, else in a new one, in two statements; the users told.
   */
  addMerging(db: Kysely<Database>, recipients: Recipients, notification: MergingNotification, now?: number): Promise<number[]>;
  /**
   * addMerging's two statements, for the caller's one statement (PostgreSQL's WITH, `merged` before
   * `added`, each returning `user_id`), both only where `when` holds.
   */
  mergingStatements(db: Kysely<Database>, recipients: Recipients, notification: MergingNotification, when: Expression<SqlBool>, now?: number): { merged: Compilable; added: Compilable };
}

import type { Generated, Selectable } from 'kysely';
import type { ListSharesTable, ShoppingItemsTable, ShoppingListsTable, TodoItemsTable, TodoListsTable } from './schema-lists.js';
export type { ListSharesTable, SharePermission, ShoppingItemsTable, ShoppingListsTable, TodoItemsTable, TodoListsTable } from './schema-lists.js';

// Column conventions, the same on SQLite and PostgreSQL so that one query path serves both:
// ids are integers, timestamps are epoch milliseconds (bigint), flags are smallint 0/1,
// money is integer cents.

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** `identityKey(username)` (platform/identity-key.ts), unique: every lookup by name compares it. */
  username_key: string;
  /**
   * `usernameSkeleton(username)` (accounts/lookalikes.ts, migration 0026): how the name looks.
   * Unique; null for a user kept from before the rule whose name looks like an older user's.
   */
  username_skeleton: string | null;
  email: string;
  /** Django's `pbkdf2_sha256$<iterations>$<salt>$<base64 hash>`. */
  password: string;
  is_active: Generated<number>;
  date_joined: number;
  last_login: number | null;
  /** An IANA time zone (platform/time-zones.ts): the user's "today". */
  timezone: Generated<string>;
  /** An ISO 4217 code for prices and totals (migration 0020), '' for none. */
  currency: Generated<string>;
  /** A catalogue's code the user chose on the account page, or '' to follow the browser. */
  language: Generated<string>;
  /** 1 for an administrator of the instance (`createuser --admin`, `promote`). */
  is_admin: Generated<number>;
  /**
   * Moves (by triggers, migration 0007) whenever something the notes pages show this user changes:
   * kept pages are served only while it has not moved.
   */
  view_version: Generated<number>;
  /** Base32 TOTP secret (migration 0010): set when 2FA is turned on, kept while it is on (while enrolling, the session holds it). */
  totp_secret: string | null;
  /** 1 once a code from the secret was confirmed: sign-in then asks for a code. */
  totp_enabled: Generated<number>;
  /** The last TOTP time step a code was accepted at: codes at it or before are refused (no replay). */
  totp_last_step: number | null;
  /** 1 when the user chose to be mailed the notices that may go by mail (migration 0029): a to-do item assigned, due, overdue. */
  mail_notifications: Generated<number>;
}

export interface SessionsTable {
  session_key: string;
  /** JSON: `_auth_user_id` and `_auth_user_hash`. */
  session_data: string;
  expire_date: number;
  /** Copy of `_auth_user_id`, indexed, to end every session of a user in one statement. */
  user_id: number;
  created_at: number;
  last_seen: number;
  user_agent: string;
  /** The client's address when the session was opened (request.ip: behind a proxy, with TRUST_PROXY). */
  ip_address: Generated<string>;
  /** The two-factor secret this session is enrolling with, until it is confirmed (or the page is opened anew). */
  totp_pending_secret: string | null;
}

/**
 * Throttled attempts (features/accounts/throttle.ts), each reserved before its password hash:
 * failed or in-flight logins, registrations, password-change checks and two-factor codes, despite the table's name.
 */
export interface LoginFailuresTable {
  id: Generated<number>;
  /** `user:<identityKey(username)>`, `ip:<address>`, `register:<address>`, `password-change:<user id>`, `2fa:<user id>` or `2fa-ip:<address>`. */
  scope: string;
  at: number;
}

/** One-use recovery codes for two-factor sign-in: SHA-256 of the code; the row goes when it is used. */
export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  /** `identityKey(name)`, unique per owner: two households may each have a "Family". */
  name_key: string;
  owner_id: number;
  created_at: number;
  /**
   * Moves (by triggers, migration 0007) whenever something the notes pages show this group's members changes:
   * kept pages are served only while it has not moved.
   */
  view_version: Generated<number>;
}

export interface GroupMembersTable {
  group_id: number;
  user_id: number;
  joined_at: number;
}

export interface NotebooksTable {
  id: Generated<number>;
  owner_id: number;
  title: string;
  /** `identityKey(title)`, unique per owner (migration 0021): "Recipes" and "recipes" are one notebook. */
  title_key: string;
  description: Generated<string>;
  color: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface TagsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  /** `identityKey(name)`, unique per owner: "work", "Work" and "ＷＯＲＫ" are one tag. */
  name_key: string;
  color: Generated<string>;
  created_at: number;
}

/** What is left of a deleted note (migration 0032): who may be told it was deleted, and when. */
export interface NoteTombstonesTable {
  note_id: number;
  owner_id: number;
  group_id: number | null;
  deleted_at: number;
}

/** The search index (PostgreSQL's tsvector of search_words / SQLite's FTS5 table) is left out: only notes/search.ts touches it. */
export interface NotesTable {
  id: Generated<number>;
  owner_id: number;
  title: string;
  content: Generated<string>;
  /** Plain-text preview of content, derived from it on every write (notes/excerpt.ts). */
  excerpt: Generated<string>;
  /**
   * What the search finds the note by, derived from title and content on every write
   * (db/search-words.ts searchWords, migration 0031): required here, so that no insert forgets it.
   */
  search_words: string;
  notebook_id: number | null;
  group_id: number | null;
  /** 0 low .. 3 urgent. */
  priority: Generated<number>;
  is_pinned: Generated<number>;
  is_archived: Generated<number>;
  created_at: number;
  updated_at: number;
  /** Moves (by triggers, migration 0007) whenever something the note's page shows changes. */
  view_version: Generated<number>;
}

export interface NoteTagsTable {
  note_id: number;
  tag_id: number;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  group_id: number;
  author_id: number;
  /** Emptied when the message is deleted. */
  content: string;
  created_at: number;
  /** When its author last changed it (migration 0028); null if never. */
  edited_at: number | null;
  /** When it was deleted (migration 0028): the row stays, so ids in the history stay continuous. */
  deleted_at: number | null;
}

/** How far a member has read a group's chat (migration 0019); no row is nothing read yet. */
export interface ChatReadsTable {
  user_id: number;
  group_id: number;
  last_read_message_id: number;
}

/** What administrators did, to whom, from where: shown at /admin/audit/. */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  /** Null when the actor was the command line, or has since been deleted. */
  actor_id: number | null;
  actor_name: string;
  action: string;
  target_id: number | null;
  target_name: string;
  address: string;
}

/** An in-app notification (platform/notifications.ts). */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  /** What it is about: `reminder`, `group.added`, `list.shared`... */
  kind: string;
  /** In English, as sent: what a reader sees when `message` is ''. */
  text: string;
  /** The words as a catalogue key with values, JSON (`{"key", "values"}`), or '' (rows of before migration 0023). */
  message: Generated<string>;
  /** A same-site path to what it is about, or ''. */
  link: Generated<string>;
  created_at: number;
  read_at: number | null;
  /** Migration 0029: unread notifications with the same key (not '') merge into one while it is recent ("3 notes shared"). */
  merge_key: Generated<string>;
  /** How many notifications this one stands for (merged ones counted). */
  count: Generated<number>;
}

/** A reminder on a note, and the scheduler's job (features/notes/reminder-scheduler.ts). */
export interface RemindersTable {
  id: Generated<number>;
  note_id: number;
  owner_id: number;
  /** The wall-clock time as entered, `YYYY-MM-DDTHH:MM[:SS]`, in time_zone. */
  local_time: string;
  /** The IANA zone it was entered in (the owner's, then). */
  time_zone: string;
  repeat: 'none' | 'daily' | 'weekly' | 'monthly';
  message: Generated<string>;
  /** Epoch ms of the next delivery. */
  next_due_at: number;
  created_at: number;
}

/** A personal access token for the JSON API (platform/api/tokens.ts); only its hash is kept. */
export interface AccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  scope: 'read' | 'write';
  token_hash: string;
  /** The first characters after `gnp_`, to tell tokens apart in the list. */
  hint: string;
  created_at: number;
  last_used_at: number | null;
}

/** Mail not yet handed to the SMTP server (platform/mail/outbox.ts); a row goes once sent or given up. */
export interface MailOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  /** Plain text. */
  body: string;
  /** Sending attempts begun, counted when a sender claims the row. */
  attempts: Generated<number>;
  /** Due at; while a sender holds the row, the end of its claim. */
  next_attempt_at: number;
  last_error: Generated<string>;
  created_at: number;
}

/** Recent events of a group, for its page (migration 0018, platform/activity.ts). */
export interface GroupActivityTable {
  id: Generated<number>;
  group_id: number;
  /** `note.shared`, `list.added`, `list.changed`, `member.added`, `member.left`, `member.removed`. */
  kind: string;
  actor_id: number | null;
  member_id: number | null;
  /** `note`, `shopping`: shown only to who may see that object now (its feature's visibility rule). */
  object_kind: string | null;
  object_id: number | null;
  /** Changes the row stands for (changes to one list by one person within minutes are one row). */
  count: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  access_tokens: AccessTokensTable;
  audit_log: AuditLogTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  recovery_codes: RecoveryCodesTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  notebooks: NotebooksTable;
  tags: TagsTable;
  notes: NotesTable;
  note_tags: NoteTagsTable;
  todo_lists: TodoListsTable;
  todo_list_shares: ListSharesTable;
  todo_items: TodoItemsTable;
  shopping_lists: ShoppingListsTable;
  shopping_list_shares: ListSharesTable;
  shopping_items: ShoppingItemsTable;
  chat_messages: ChatMessagesTable;
  chat_reads: ChatReadsTable;
  mail_outbox: MailOutboxTable;
  notifications: NotificationsTable;
  reminders: RemindersTable;
  group_activity: GroupActivityTable;
  note_tombstones: NoteTombstonesTable;
}

export type User = Selectable<UsersTable>;
export type Group = Selectable<GroupsTable>;
export type Notebook = Selectable<NotebooksTable>;
export type Tag = Selectable<TagsTable>;
export type Note = Selectable<NotesTable>;
export type Reminder = Selectable<RemindersTable>;
export type TodoList = Selectable<TodoListsTable>;
export type TodoItem = Selectable<TodoItemsTable>;
export type ShoppingList = Selectable<ShoppingListsTable>;
export type ShoppingItem = Selectable<ShoppingItemsTable>;

import type { Generated, Selectable } from 'kysely';

// Column conventions, the same on SQLite and PostgreSQL so that one query path serves both:
// ids are integers, timestamps are epoch milliseconds (bigint), flags are smallint 0/1,
// money is integer cents.

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  /** Django's `pbkdf2_sha256$<iterations>$<salt>$<base64 hash>`. */
  password: string;
  is_active: Generated<number>;
  date_joined: number;
  last_login: number | null;
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
}

export interface LoginFailuresTable {
  id: Generated<number>;
  /** `user:<lowercased username>` or `ip:<address>`. */
  scope: string;
  at: number;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  owner_id: number;
  created_at: number;
}

export interface GroupMembersTable {
  group_id: number;
  user_id: number;
  joined_at: number;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  group_id: number;
  author_id: number;
  content: string;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  chat_messages: ChatMessagesTable;
}

export type User = Selectable<UsersTable>;
export type Group = Selectable<GroupsTable>;

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { randomString } from '../passwords/passwords.js';
import { isOneOf } from '../../db/id-lists.js';
import { countedLinks, type NavigationEntry, type NavigationLink, navigationEntries } from '../navigation.js';
import type { RouteColumn } from './route-column.js';
import { CallerColumns, type CallerColumn, callerValues } from './caller-columns.js';
import { type SessionAdditions, SessionQueries } from './session-query.js';

export const SESSION_COOKIE = 'sessionid';
const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const KEY_PATTERN = /^[a-z0-9]{32}$/;
/** last_seen is refreshed at most this often, so a busy session is not one write per request. */
const TOUCH_INTERVAL_MS = 60_000;
/** Users whose navigation counts one statement reads (navigationCounts). */
const NAVIGATION_CHUNK = 500;

export interface SessionUser {
  id: number;
  username: string;
  email: string;
  password: string;
  is_active: number;
  is_admin: number;
  timezone: string;
  currency: string;
  language: string;
}

export interface LoadedSession {
  key: string;
  authHash: string;
  expireDate: number;
  user: SessionUser;
  /**
   * The user's view version and the caller columns that are parts of it (the groups' versions:
   * db/migrations/0007_view_versions.ts), read with the session, before anything else the request
   * reads: it changes whenever something the kept pages show this user changes, so a page kept
   * under it is as new as the database.
   */
  viewToken: string;
  /** The caller columns features added (CallerColumns), by name, as the database gave them. */
  columns: Readonly<Record<string, unknown>>;
  /** The navigation's links (addNavigationLink) with their counts, read with the session, in the order added. */
  navigation: readonly NavigationEntry[];
  /** The value of the route column the session was read with (load's `route`), as the database gave it. */
  routeValue?: unknown;
}

interface SessionData {
  _auth_user_id: string;
  _auth_user_hash: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The stored session named by the `sessionid` cookie, with its user; null when there is none. */
    session: LoadedSession | null;
  }
  interface FastifyContextConfig {
    /** Routes that never need a session (static files, health checks) skip loading it. */
    sessionless?: boolean;
  }
}

/** Ties a session to the password it was opened with: changing the password ends every other session. */
export function sessionAuthHash(secretKey: string, passwordHash: string): string {
  return createHmac('sha256', `groupnotes.session-auth-hash:${secretKey}`).update(passwordHash).digest('hex');
}

export function authHashMatches(expected: string, actual: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(actual);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A session's public name, for pages and forms that must point at one session: a session key is
 * a credential and never leaves its cookie. A hash of the key, so nothing needs storing, and too
 * long to guess (a guess could only ever name one of the caller's own sessions anyway).
 */
export function sessionKeyId(key: string): string {
  return createHash('sha256').update(`groupnotes.session-key-id:${key}`).digest('hex').slice(0, 24);
}

/** What a session row stores: always built here, so that equal data is equal text. */
function sessionData(userId: number, authHash: string): string {
  return JSON.stringify({ _auth_user_id: String(userId), _auth_user_hash: authHash } satisfies SessionData);
}

/** Hears the keys of sessions that ended (logout, password change...), so live sockets can close. */
export type SessionsEndedListener = (sessionKeys: string[]) => void;

/** Server-side session rows: the cookie holds only the random key. */
export class SessionStore {
  private loaded = false;
  /** The session's statements (session-query.ts), built on first use, after every navigation link is added. */
  private readonly queries: SessionQueries;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly lifetimeSeconds: number,
    private readonly onEnded?: SessionsEndedListener,
    private readonly additions: SessionAdditions = { links: [], callers: new CallerColumns() },
  ) {
    this.queries = new SessionQueries(additions);
  }

  /** The same store working inside a transaction. */
  withDb(db: Kysely<Database>): SessionStore {
    return new SessionStore(db, this.lifetimeSeconds, this.onEnded, this.additions);
  }

  /** A column read about the caller with the session (and with an API token: the callers are shared), added by features before the first request. */
  addCallerColumn(column: CallerColumn): void {
    this.additions.callers.add(column);
  }

  /** The caller columns, for the API token store to read the same. */
  get callerColumns(): CallerColumns {
    return this.additions.callers;
  }

  /** A link of every page's navigation, its count read in the session's statement: added by features before the first request. */
  addNavigationLink(link: NavigationLink): void {
    if (this.loaded) throw new Error('navigation links are added before the first session is loaded');
    this.additions.links.push(link);
  }

  /**
   * The navigation's links with these users' counts as they are now, by user (a user that does
   * not exist is left out): what a live page is told when its counts move (`navigation.changed`).
   * The same scalar subqueries as the session's statement, one statement per 500 users.
   */
  async navigationCounts(userIds: readonly number[]): Promise<Map<number, NavigationEntry[]>> {
    const counts = new Map<number, NavigationEntry[]>();
    const ids = [...new Set(userIds)];
    const counted = countedLinks(this.additions.links);
    for (let start = 0; start < ids.length; start += NAVIGATION_CHUNK) {
      const chunk = ids.slice(start, start + NAVIGATION_CHUNK);
      const rows = await this.db
        .selectFrom('users')
        .select(['users.id', ...counted.map((link, index) => link.count!.query(this.db, sql.ref<number>('users.id')).as(`navigation_${index}`))])
        .where((eb) => isOneOf(this.db, eb.ref('users.id'), chunk))
        .execute();
      for (const row of rows) counts.set(row.id, navigationEntries(this.additions.links, row));
    }
    return counts;
  }

  /**
   * The live session named `key`, with its user, read from the database (no process keeps
   * sessions); with a route column's value for its `argument` when given. `writing`: read on the way to a
   * write (a form's POST), so it waits for a connection with the writes (GOES_FIRST).
   */
  async load(key: string, now = Date.now(), route?: { column: RouteColumn; argument: number }, writing = false): Promise<LoadedSession | null> {
    if (!KEY_PATTERN.test(key)) return null;
    this.loaded = true;
    const row = await this.queries.read(this.db, { key, now, argument: route?.argument ?? 0 }, route?.column, writing);
    if (!row) return null;
    if (now - row.last_seen > TOUCH_INTERVAL_MS) {
      await this.db.updateTable('sessions').set({ last_seen: now }).where('session_key', '=', key).execute();
    }
    const data = JSON.parse(row.session_data) as SessionData;
    const { id, username, email, password, is_active, is_admin, timezone, currency, language } = row;
    const callers = this.additions.callers.list();
    const columns = callerValues(callers, row);
    // PostgreSQL hands back JSON parsed, SQLite as its text: the token is the text either way.
    const tokenParts = callers.filter((column) => column.inViewToken).map(({ name }) => (typeof columns[name] === 'string' ? columns[name] : JSON.stringify(columns[name])));
    // Frozen: the authentication layer remembers what it worked out per session object.
    return Object.freeze({
      key: row.session_key,
      authHash: data._auth_user_hash,
      expireDate: row.expire_date,
      user: Object.freeze({ id, username, email, password, is_active, is_admin, timezone, currency, language }),
      viewToken: [row.view_version, ...tokenParts].join(':'),
      columns,
      // Counts are bigint on PostgreSQL (parsed to numbers by db/database.ts), integers on SQLite.
      navigation: navigationEntries(this.additions.links, row),
      routeValue: route ? row.route_value : undefined,
    });
  }

  async create(userId: number, authHash: string, userAgent: string, now = Date.now(), ipAddress = ''): Promise<{ key: string; expireDate: number }> {
    const key = randomString(32, KEY_ALPHABET);
    const expireDate = now + this.lifetimeSeconds * 1000;
    await this.db
      .insertInto('sessions')
      .values({
        session_key: key,
        session_data: sessionData(userId, authHash),
        expire_date: expireDate,
        user_id: userId,
        created_at: now,
        last_seen: now,
        user_agent: userAgent.slice(0, 300),
        ip_address: ipAddress.slice(0, 64),
      })
      .execute();
    return { key, expireDate };
  }

  /** Keeps a session alive across a password change made in it (Django's update_session_auth_hash). */
  async updateAuthHash(key: string, userId: number, authHash: string): Promise<void> {
    await this.db.updateTable('sessions').set({ session_data: sessionData(userId, authHash) }).where('session_key', '=', key).execute();
  }

  /**
   * Moves the user's sessions tied to one hash of their password to another hash of the *same*
   * password (a re-hash at a higher cost), so that it does not log them out of their other
   * devices. Sessions tied to an older password stay ended.
   */
  async carryOverAuthHash(userId: number, from: string, to: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ session_data: sessionData(userId, to) })
      .where('user_id', '=', userId)
      .where('session_data', '=', sessionData(userId, from))
      .execute();
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('session_key', '=', key).execute();
    this.onEnded?.([key]);
  }

  /** Ends every session of a user, but the one named (if any); returns the keys ended. */
  async deleteForUser(userId: number, exceptKey?: string): Promise<string[]> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptKey) query = query.where('session_key', '!=', exceptKey);
    const rows = await query.returning('session_key').execute();
    const keys = rows.map((row) => row.session_key);
    if (keys.length > 0) this.onEnded?.(keys);
    return keys;
  }

  /** Which of these keys still name a live session (for long-lived sockets opened with them). */
  async liveKeys(keys: string[], now = Date.now()): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db.selectFrom('sessions').select('session_key').where((eb) => isOneOf(this.db, eb.ref('session_key'), keys)).where('expire_date', '>', now).execute();
    return new Set(rows.map((row) => row.session_key));
  }

  /**
   * Ends the user's session whose key id (sessionKeyId) is `keyId`; false when they have none
   * such (another user's session is "none such": its id names nothing here).
   */
  async deleteForUserByKeyId(userId: number, keyId: string, now = Date.now()): Promise<boolean> {
    const rows = await this.listForUser(userId, now);
    const row = rows.find((candidate) => sessionKeyId(candidate.session_key) === keyId);
    if (!row) return false;
    await this.delete(row.session_key);
    return true;
  }

  async listForUser(userId: number, now = Date.now()) {
    return this.db
      .selectFrom('sessions')
      .select(['session_key', 'created_at', 'last_seen', 'user_agent', 'ip_address', 'expire_date'])
      .where('user_id', '=', userId)
      .where('expire_date', '>', now)
      .orderBy('last_seen', 'desc')
      .execute();
  }

  async clearExpired(now = Date.now()): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('expire_date', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

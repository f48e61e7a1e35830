import { createHash } from 'node:crypto';
import { type Kysely, PostgresAdapter, type SqlBool, sql } from 'kysely';
import { Coalescer } from '../../db/coalesce.js';
import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import { type Params, PreparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { randomString } from '../passwords/passwords.js';

/** Every token starts so, for secret scanners (GitHub's `ghp_` is the model) and for people. */
export const TOKEN_PREFIX = 'gnp_';
const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const TOKEN_LENGTH = 40;
export const TOKEN_PATTERN = new RegExp(`^${TOKEN_PREFIX}[${TOKEN_ALPHABET}]{${TOKEN_LENGTH}}$`);
const HINT_LENGTH = 4;
/** last_used_at is written at most this often, so a busy token is not one write per request. */
const TOUCH_INTERVAL_MS = 60_000;

export type TokenScope = 'read' | 'write';

/** The hex SHA-256 kept in place of the token: 238 random bits need no salt nor slow hash. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new token, shown to its user once, and what is stored of it. */
export function newToken(): { token: string; hash: string; hint: string } {
  const token = TOKEN_PREFIX + randomString(TOKEN_LENGTH, TOKEN_ALPHABET);
  return { token, hash: hashToken(token), hint: token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + HINT_LENGTH) };
}

export interface TokenCaller {
  tokenId: number;
  scope: TokenScope;
  lastUsedAt: number | null;
  user: { id: number; username: string; email: string; timezone: string; language: string; is_admin: number };
  /** The user's groups, read with the token as a session reads them: the lists need them, and need not ask again. */
  groupIds: readonly number[];
}

/** The tokens' rows, with their active users and their groups. */
function tokenRows(db: Kysely<Database>) {
  return db
    .selectFrom('access_tokens')
    .innerJoin('users', 'users.id', 'access_tokens.user_id')
    .select(['access_tokens.id', 'access_tokens.token_hash', 'access_tokens.scope', 'access_tokens.last_used_at', 'users.id as user_id', 'users.username', 'users.email', 'users.timezone', 'users.language', 'users.is_admin'])
    .select((eb) => jsonRowsFrom(db, eb.selectFrom('group_members').select('group_members.group_id as id').whereRef('group_members.user_id', '=', 'users.id').orderBy('group_members.group_id')).as('groups'))
    .where('users.is_active', '=', 1);
}

/** One token, in one statement prepared once. */
const tokenQuery = new PreparedQuery((db, params: Params<{ hash: string }>) => tokenRows(db).where('access_tokens.token_hash', '=', params.hash));

/** Many tokens in one PostgreSQL statement, each row naming its hash. */
const tokensQuery = new PreparedQuery((db, params: Params<{ hashes: string[] }>) => tokenRows(db).where(sql<SqlBool>`access_tokens.token_hash = any(${params.hashes}::text[])`));

type TokenRow = NonNullable<Awaited<ReturnType<typeof tokenQuery.executeTakeFirst>>>;

/** The most tokens one statement reads, and the statements out at a time (as the sessions': chain/session-query.ts). */
const BATCH_MAX = 64;
const BATCH_RUNS = 1;

/** Looks up bearer tokens for the API layer; creating, listing and revoking them is the accounts feature's. */
export class TokenStore {
  /**
   * On PostgreSQL the tokens that requests ask for while a statement is out (or in one turn of
   * the event loop) are read in one statement, as the pages' sessions are: under the crowd's API
   * reads the token's statement was one of every request's two.
   */
  private readonly batch: Coalescer<string, TokenRow | undefined> | undefined;

  constructor(private readonly db: Kysely<Database>) {
    this.batch = db.getExecutor().adapter instanceof PostgresAdapter && !db.isTransaction
      ? new Coalescer(async (hashes) => {
        const rows = new Map((await tokensQuery.execute(db, { hashes: [...hashes] })).map((row) => [row.token_hash, row]));
        return hashes.map((hash) => rows.get(hash));
      }, BATCH_MAX, BATCH_RUNS)
      : undefined;
  }

  /** The caller a token stands for; null for a malformed, unknown or revoked token, or a deactivated user. */
  async authenticate(token: string): Promise<TokenCaller | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const hash = hashToken(token);
    const row = this.batch ? await this.batch.call(hash) : await tokenQuery.executeTakeFirst(this.db, { hash });
    if (!row) return null;
    return {
      tokenId: row.id,
      scope: row.scope,
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
      user: { id: row.user_id, username: row.username, email: row.email, timezone: row.timezone, language: row.language, is_admin: row.is_admin },
      groupIds: Object.freeze(parseJsonRows<{ id: number }>(row.groups).map((group) => group.id)),
    };
  }

  /** Records a use, at most once a TOUCH_INTERVAL_MS per token. */
  async touch(caller: TokenCaller, now = Date.now()): Promise<void> {
    if (caller.lastUsedAt !== null && now - caller.lastUsedAt < TOUCH_INTERVAL_MS) return;
    await this.db.updateTable('access_tokens').set({ last_used_at: now }).where('id', '=', caller.tokenId).execute();
  }
}

import { createHash } from 'node:crypto';
import { type Kysely, PostgresAdapter, type SqlBool, sql } from 'kysely';
import { BatchedCalls } from '../../db/batched-calls.js';
import { type Params, PreparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { randomString } from '../passwords/passwords.js';
import { type CallerColumn, CallerColumns, callerColumnsSelection, callerValues } from '../chain/caller-columns.js';

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
  /** The caller columns features added (CallerColumns), read with the token as a session reads them: features need not ask again. */
  columns: Readonly<Record<string, unknown>>;
}

/** The tokens' rows, with their active users and the caller columns. */
function tokenRows(db: Kysely<Database>, callers: readonly CallerColumn[]) {
  return db
    .selectFrom('access_tokens')
    .innerJoin('users', 'users.id', 'access_tokens.user_id')
    .select(['access_tokens.id', 'access_tokens.token_hash', 'access_tokens.scope', 'access_tokens.last_used_at', 'users.id as user_id', 'users.username', 'users.email', 'users.timezone', 'users.language', 'users.is_admin'])
    .select(callerColumnsSelection(db, callers, sql.ref<number>('users.id')))
    .where('users.is_active', '=', 1);
}

/** One token, in one statement prepared once. */
const tokenQuery = (callers: readonly CallerColumn[]) => new PreparedQuery((db, params: Params<{ hash: string }>) => tokenRows(db, callers).where('access_tokens.token_hash', '=', params.hash));

/** Many tokens in one PostgreSQL statement, each row naming its hash. */
const tokensQuery = (callers: readonly CallerColumn[]) =>
  new PreparedQuery((db, params: Params<{ hashes: string[] }>) => tokenRows(db, callers).where(sql<SqlBool>`access_tokens.token_hash = any(${params.hashes}::text[])`));

type TokenRow = NonNullable<Awaited<ReturnType<ReturnType<typeof tokenQuery>['executeTakeFirst']>>>;

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
  private batch: BatchedCalls<string, TokenRow | undefined> | undefined;
  /** The statements, built at the first token read: after every caller column is added. */
  private statements: { one: ReturnType<typeof tokenQuery>; many: ReturnType<typeof tokensQuery> } | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly callers: CallerColumns = new CallerColumns(),
  ) {}

  private read(hash: string): Promise<TokenRow | undefined> {
    if (!this.statements) {
      const columns = this.callers.list();
      const statements = (this.statements = { one: tokenQuery(columns), many: tokensQuery(columns) });
      const db = this.db;
      if (db.getExecutor().adapter instanceof PostgresAdapter && !db.isTransaction) {
        this.batch = new BatchedCalls(async (hashes) => {
          const rows = new Map((await statements.many.execute(db, { hashes: [...hashes] })).map((row) => [row.token_hash, row]));
          return hashes.map((asked) => rows.get(asked));
        }, BATCH_MAX, BATCH_RUNS);
      }
    }
    return this.batch ? this.batch.call(hash) : this.statements.one.executeTakeFirst(this.db, { hash });
  }

  /** The caller a token stands for; null for a malformed, unknown or revoked token, or a deactivated user. */
  async authenticate(token: string): Promise<TokenCaller | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const hash = hashToken(token);
    const row = await this.read(hash);
    if (!row) return null;
    return {
      tokenId: row.id,
      scope: row.scope,
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
      user: { id: row.user_id, username: row.username, email: row.email, timezone: row.timezone, language: row.language, is_admin: row.is_admin },
      columns: callerValues(this.callers.list(), row),
    };
  }

  /** Records a use, at most once a TOUCH_INTERVAL_MS per token. */
  async touch(caller: TokenCaller, now = Date.now()): Promise<void> {
    if (caller.lastUsedAt !== null && now - caller.lastUsedAt < TOUCH_INTERVAL_MS) return;
    await this.db.updateTable('access_tokens').set({ last_used_at: now }).where('id', '=', caller.tokenId).execute();
  }
}

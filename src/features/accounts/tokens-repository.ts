import type { Kysely } from 'kysely';
import { lockKeys } from '../../db/locks.js';
import type { AccessTokensTable, Database } from '../../db/schema.js';
import { type TokenScope, newToken } from '../../platform/api/tokens.js';
import { identityKey } from '../../platform/identity-key.js';

/** A user may hold this many tokens: enough for every script and machine, few enough to review. */
export const MAX_TOKENS_PER_USER = 50;

/** What the list shows of a token: never its hash, which is as good as the token to a database reader. */
export type TokenRow = Pick<AccessTokensTable, 'name' | 'scope' | 'hint' | 'created_at' | 'last_used_at'> & { id: number };

const TOKEN_COLUMNS = ['id', 'name', 'scope', 'hint', 'created_at', 'last_used_at'] as const;

export type CreatedToken = { ok: true; row: TokenRow; token: string } | { ok: false; reason: 'limit' | 'signed-out' | 'name-taken' };

/** The key that making a user's token and revoking all of them take turns on (db/locks.ts). */
export const tokensLockKey = (userId: number) => `access_tokens:${userId}`;

/** The caller's own personal access tokens: every query is scoped to the user, so another's id names nothing. */
export class TokensRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** One of the caller's tokens; undefined for an id naming none of theirs. */
  findForUser(userId: number, id: number): Promise<TokenRow | undefined> {
    return this.db.selectFrom('access_tokens').select(TOKEN_COLUMNS).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  listForUser(userId: number): Promise<TokenRow[]> {
    return this.db
      .selectFrom('access_tokens')
      .select(TOKEN_COLUMNS)
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
  }

  /**
   * Stores a new token unless the user holds MAX_TOKENS_PER_USER already, or one of the same name
   * (identityKey: a reload of the page that showed a token made, which sends its form again, makes
   * no second one), or the session asking
   * (`sessionKey`) has ended meanwhile (a password reset, say, after this request checked the
   * password). The checks and the insert are one transaction that takes the user's token lock
   * first, as `revokeAll` does: two requests at once cannot both see 49 and make 51, and a token
   * made while a reset runs is either refused or revoked by it. `alongside` runs in the same
   * transaction once the token is stored (the mail telling its owner).
   */
  create(
    userId: number,
    fields: { name: string; scope: TokenScope },
    { sessionKey, alongside }: { sessionKey: string; alongside?: (trx: Kysely<Database>) => Promise<void> },
    now = Date.now(),
  ): Promise<CreatedToken> {
    return this.db.transaction().execute(async (trx) => {
      await lockKeys(trx, [tokensLockKey(userId)]);
      const session = await trx.selectFrom('sessions').select('session_key').where('session_key', '=', sessionKey).where('user_id', '=', userId).executeTakeFirst();
      if (!session) return { ok: false, reason: 'signed-out' };
      // At most MAX_TOKENS_PER_USER names, read under the lock: the count and the names at once.
      const names = await trx.selectFrom('access_tokens').select('name').where('user_id', '=', userId).execute();
      if (names.length >= MAX_TOKENS_PER_USER) return { ok: false, reason: 'limit' };
      // Two tokens of one name could not be told apart on the list; and a reload of the form's answer sends the same name again.
      const key = identityKey(fields.name);
      if (names.some(({ name }) => identityKey(name) === key)) return { ok: false, reason: 'name-taken' };
      const { token, hash, hint } = newToken();
      const row = await trx
        .insertInto('access_tokens')
        .values({ user_id: userId, name: fields.name, scope: fields.scope, token_hash: hash, hint, created_at: now })
        .returning(TOKEN_COLUMNS)
        .executeTakeFirstOrThrow();
      await alongside?.(trx);
      return { ok: true, row, token };
    });
  }

  /**
   * Revokes every token of the user: the rows go, so nothing (a reactivation, say) brings one back
   * and the next request with any of them is a 401. Run in the transaction of the change that
   * calls for it (it waits for a token being made to commit, and so revokes that one too);
   * returns how many there were.
   */
  async revokeAll(userId: number): Promise<number> {
    await lockKeys(this.db, [tokensLockKey(userId)]);
    const result = await this.db.deleteFrom('access_tokens').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Revokes one of the user's tokens (the row goes, so the next request with it is a 401); false when the user has none such. */
  async revoke(userId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('access_tokens').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}

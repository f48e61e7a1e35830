import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface TwoFactorState {
  totp_secret: string | null;
  totp_enabled: number;
}

/** The SQL of two-factor sign-in: the user's TOTP columns and their recovery codes. */
export class TwoFactorRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findState(userId: number): Promise<TwoFactorState | undefined> {
    return this.db.selectFrom('users').select(['totp_secret', 'totp_enabled']).where('id', '=', userId).executeTakeFirst();
  }

  /**
   * Starts an enrolment in this session with `secret`: it replaces the one the session held, so
   * each opening of the setup page shows a secret nobody saw before, and no other session (a
   * borrowed one included) ever shows it.
   */
  async startEnrolment(userId: number, sessionKey: string, secret: string): Promise<void> {
    await this.db.updateTable('sessions').set({ totp_pending_secret: secret }).where('session_key', '=', sessionKey).where('user_id', '=', userId).execute();
  }

  /** The secret this session is enrolling with, if any. */
  async pendingSecret(userId: number, sessionKey: string): Promise<string | null> {
    const row = await this.db.selectFrom('sessions').select('totp_pending_secret').where('session_key', '=', sessionKey).where('user_id', '=', userId).executeTakeFirst();
    return row?.totp_pending_secret ?? null;
  }

  /** Drops every enrolment of the user's sessions (their password changed: whoever saw a secret starts again). */
  async dropEnrolments(userId: number): Promise<void> {
    await this.db.updateTable('sessions').set({ totp_pending_secret: null }).where('user_id', '=', userId).where('totp_pending_secret', 'is not', null).execute();
  }

  /**
   * Turns 2FA on with the secret a code was confirmed from, taken from the session's enrolment
   * (only if it is still the one the session holds: not replaced by a newer opening of the page)
   * and stores the recovery codes' hashes; false when it was already on or the secret moved. Run
   * it in the caller's transaction.
   */
  async enable(userId: number, sessionKey: string, secret: string, step: number, recoveryHashes: string[]): Promise<boolean> {
    const taken = await this.db
      .updateTable('sessions')
      .set({ totp_pending_secret: null })
      .where('session_key', '=', sessionKey)
      .where('user_id', '=', userId)
      .where('totp_pending_secret', '=', secret)
      .executeTakeFirst();
    if (taken.numUpdatedRows === 0n) return false;
    const result = await this.db
      .updateTable('users')
      .set({ totp_enabled: 1, totp_secret: secret, totp_last_step: step })
      .where('id', '=', userId)
      .where('totp_enabled', '=', 0)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await this.db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await this.db.insertInto('recovery_codes').values(recoveryHashes.map((code_hash) => ({ user_id: userId, code_hash }))).execute();
    return true;
  }

  /** Turns 2FA off: the secret and every recovery code go, so turning it on again starts afresh. Run it in the caller's transaction. */
  async disable(userId: number): Promise<void> {
    await this.db.updateTable('users').set({ totp_enabled: 0, totp_secret: null, totp_last_step: null }).where('id', '=', userId).execute();
    await this.db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  }

  /**
   * Accepts a TOTP code's time step once: the check (later than the last step used) and the write
   * are one statement, so two requests with one code cannot both pass.
   */
  async claimStep(userId: number, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where('totp_enabled', '=', 1)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  recoveryCodes(userId: number): Promise<{ id: number; code_hash: string }[]> {
    return this.db.selectFrom('recovery_codes').select(['id', 'code_hash']).where('user_id', '=', userId).orderBy('id').execute();
  }

  /** Uses up a recovery code: only the request whose delete removed the row may sign in with it. */
  async useRecoveryCode(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('recovery_codes').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async countRecoveryCodes(userId: number): Promise<number> {
    const row = await this.db.selectFrom('recovery_codes').select((eb) => eb.fn.countAll<number>().as('count')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.count);
  }
}

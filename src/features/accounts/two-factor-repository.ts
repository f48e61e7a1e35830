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
   * The secret to enrol with: the one already stored, else a `fresh` one, stored by the statement
   * that checks there is none, so two tabs opened at once show the same QR code.
   */
  async secretForEnrolment(userId: number, fresh: () => string): Promise<TwoFactorState | undefined> {
    const state = await this.findState(userId);
    if (!state || state.totp_secret !== null) return state;
    await this.db.updateTable('users').set({ totp_secret: fresh() }).where('id', '=', userId).where('totp_secret', 'is', null).execute();
    return this.findState(userId);
  }

  /**
   * Turns 2FA on with the secret a code was confirmed from (not one replaced since) and stores the
   * recovery codes' hashes; false when it was already on or the secret moved. Run it in the
   * caller's transaction.
   */
  async enable(userId: number, secret: string, step: number, recoveryHashes: string[]): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ totp_enabled: 1, totp_last_step: step })
      .where('id', '=', userId)
      .where('totp_secret', '=', secret)
      .where('totp_enabled', '=', 0)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await this.db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await this.db.insertInto('recovery_codes').values(recoveryHashes.map((code_hash) => ({ user_id: userId, code_hash }))).execute();
    return true;
  }

  /** Turns 2FA off: the secret and every recovery code go, so turning it on again starts afresh. */
  async disable(userId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ totp_enabled: 0, totp_secret: null, totp_last_step: null }).where('id', '=', userId).execute();
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    });
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

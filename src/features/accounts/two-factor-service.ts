import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { SessionStore } from '../../platform/chain/session.js';
import { verifyPassword } from '../../platform/passwords/passwords.js';
import { UsersRepository } from './repository.js';
import type { Outcome } from '../../platform/forms.js';
import { asTotpCode, matchingRecoveryCode, newRecoveryCodes, newTotpSecret, qrCodeImage, recoveryCodeHash, totpStep, totpUri } from './two-factor-codes.js';
import { TwoFactorRepository } from './two-factor-repository.js';

export type Enrolment =
  | { enabled: false; secret: string; uri: string; qrCode: string }
  | { enabled: true; recoveryCodesLeft: number };

const WRONG_CODE = 'two_factor.code_wrong';

export class TwoFactorService {
  private readonly repository: TwoFactorRepository;
  private readonly users: UsersRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Config,
    private readonly sessions: SessionStore,
  ) {
    this.repository = new TwoFactorRepository(db);
    this.users = new UsersRepository(db);
  }

  /** What the 2FA page shows: the secret to scan while it is off, the recovery codes left once it is on. */
  async enrolment(user: { id: number; username: string }): Promise<Enrolment> {
    const state = await this.repository.secretForEnrolment(user.id, newTotpSecret);
    if (!state?.totp_secret) throw new NotFound();
    if (state.totp_enabled === 1) return { enabled: true, recoveryCodesLeft: await this.repository.countRecoveryCodes(user.id) };
    const uri = totpUri(state.totp_secret, user.username);
    return { enabled: false, secret: state.totp_secret, uri, qrCode: await qrCodeImage(uri) };
  }

  /**
   * Turns 2FA on once a code from the stored secret is confirmed; the value is the ten recovery
   * codes, in the clear this once. Not throttled: whoever is here is signed in and can read the
   * secret on the page anyway. Every other session of the user ends with it, in one transaction
   * (their chat sockets close): they were opened with the password alone, below the new bar, and
   * one may be the very intruder the user turns 2FA on against. `keepSessionKey` is the caller's.
   */
  async enable(userId: number, code: string, keepSessionKey: string, now = Date.now()): Promise<Outcome<string[]>> {
    const state = await this.repository.findState(userId);
    if (state?.totp_enabled === 1) return { ok: false, errors: { __all__: ['two_factor.already_on'] } };
    if (!state?.totp_secret) return { ok: false, errors: { __all__: ['two_factor.start_again_qr'] } };
    const totpCode = asTotpCode(code);
    const step = totpCode === null ? null : totpStep(state.totp_secret, totpCode, now);
    if (step === null) return { ok: false, errors: { code: [WRONG_CODE] } };
    const recoveryCodes = newRecoveryCodes();
    const secret = state.totp_secret;
    const enabled = await this.db.transaction().execute(async (trx) => {
      if (!(await new TwoFactorRepository(trx).enable(userId, secret, step, recoveryCodes.map(recoveryCodeHash)))) return false;
      await this.sessions.withDb(trx).deleteForUser(userId, keepSessionKey);
      return true;
    });
    if (!enabled) return { ok: false, errors: { __all__: ['two_factor.changed_elsewhere'] } };
    return { ok: true, value: recoveryCodes };
  }

  /**
   * A second factor for the user: a TOTP code from a time step later than the last one used, or a
   * recovery code not used before. Either is used up by this call, even by a sign-in that then fails.
   */
  async acceptCode(userId: number, code: string, now = Date.now()): Promise<boolean> {
    const state = await this.repository.findState(userId);
    if (state?.totp_enabled !== 1 || !state.totp_secret) return false;
    const totpCode = asTotpCode(code);
    if (totpCode !== null) {
      const step = totpStep(state.totp_secret, totpCode, now);
      return step !== null && (await this.repository.claimStep(userId, step));
    }
    const stored = await this.repository.recoveryCodes(userId);
    const index = matchingRecoveryCode(stored.map((row) => row.code_hash), code);
    return index >= 0 && (await this.repository.useRecoveryCode(stored[index]!.id));
  }

  /** Turns 2FA off: it takes the account's password and a code, so an open session alone cannot. */
  async disable(userId: number, password: string, code: string, now = Date.now()): Promise<Outcome<void>> {
    const user = await this.users.findById(userId);
    if (!user) throw new NotFound();
    if (user.totp_enabled !== 1) return { ok: false, errors: { __all__: ['two_factor.already_off'] } };
    const { ok } = await verifyPassword(password, user.password, this.config.pbkdf2Iterations);
    if (!ok) return { ok: false, errors: { password: ['two_factor.password_wrong'] } };
    if (!(await this.acceptCode(userId, code, now))) return { ok: false, errors: { code: [WRONG_CODE] } };
    await this.repository.disable(userId);
    return { ok: true, value: undefined };
  }
}

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
import { TokensRepository } from './tokens-repository.js';
import type { AccountNotices } from './notices.js';
import type { Translator } from '../../platform/i18n/index.js';

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
    private readonly notices: AccountNotices,
  ) {
    this.repository = new TwoFactorRepository(db);
    this.users = new UsersRepository(db);
  }

  /**
   * What the 2FA page shows: the secret to scan while it is off, the recovery codes left once it is
   * on. `fresh`: the page is opened anew, so the session's enrolment starts over with a new secret;
   * otherwise (the form shown again) the session's secret is kept.
   */
  async enrolment(user: { id: number; username: string }, sessionKey: string, fresh: boolean): Promise<Enrolment> {
    const state = await this.repository.findState(user.id);
    if (!state) throw new NotFound();
    if (state.totp_enabled === 1) return { enabled: true, recoveryCodesLeft: await this.repository.countRecoveryCodes(user.id) };
    let secret = fresh ? null : await this.repository.pendingSecret(user.id, sessionKey);
    if (secret === null) {
      secret = newTotpSecret();
      await this.repository.startEnrolment(user.id, sessionKey, secret);
    }
    const uri = totpUri(secret, user.username);
    return { enabled: false, secret, uri, qrCode: await qrCodeImage(uri) };
  }

  /**
   * Turns 2FA on once a code from the session's pending secret is confirmed (the caller has checked
   * the password); the value is the ten recovery codes, in the clear this once. Every other
   * session of the user ends with it, in one transaction (their chat sockets close): they were
   * opened with the password alone, below the new bar, and one may be the very intruder the user
   * turns 2FA on against; so do the user's API tokens, if `revokeTokens`. `sessionKey` is the
   * caller's. The owner is told by mail.
   */
  async enable(userId: number, code: string, sessionKey: string, t: Translator, { revokeTokens }: { revokeTokens: boolean }, now = Date.now()): Promise<Outcome<string[]>> {
    const user = await this.users.findById(userId);
    if (!user) throw new NotFound();
    if (user.totp_enabled === 1) return { ok: false, errors: { __all__: ['two_factor.already_on'] } };
    const secret = await this.repository.pendingSecret(userId, sessionKey);
    if (secret === null) return { ok: false, errors: { __all__: ['two_factor.start_again_qr'] } };
    const totpCode = asTotpCode(code);
    const step = totpCode === null ? null : totpStep(secret, totpCode, now);
    if (step === null) return { ok: false, errors: { code: [WRONG_CODE] } };
    const recoveryCodes = newRecoveryCodes();
    const enabled = await this.db.transaction().execute(async (trx) => {
      if (!(await new TwoFactorRepository(trx).enable(userId, sessionKey, secret, step, recoveryCodes.map(recoveryCodeHash)))) return false;
      await this.sessions.withDb(trx).deleteForUser(userId, sessionKey);
      if (revokeTokens) await new TokensRepository(trx).revokeAll(userId);
      await this.notices.queueIn(trx, { kind: 'two_factor_on', to: user, t });
      return true;
    });
    if (!enabled) return { ok: false, errors: { __all__: ['two_factor.changed_elsewhere'] } };
    this.notices.sent();
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

  /** Turns 2FA off: it takes the account's password and a code, so an open session alone cannot. The owner is told by mail. */
  async disable(userId: number, password: string, code: string, t: Translator, now = Date.now()): Promise<Outcome<void>> {
    const user = await this.users.findById(userId);
    if (!user) throw new NotFound();
    if (user.totp_enabled !== 1) return { ok: false, errors: { __all__: ['two_factor.already_off'] } };
    const { ok } = await verifyPassword(password, user.password, this.config.pbkdf2Iterations);
    if (!ok) return { ok: false, errors: { password: ['two_factor.password_wrong'] } };
    if (!(await this.acceptCode(userId, code, now))) return { ok: false, errors: { code: [WRONG_CODE] } };
    await this.db.transaction().execute(async (trx) => {
      await new TwoFactorRepository(trx).disable(userId);
      await this.notices.queueIn(trx, { kind: 'two_factor_off', to: user, t });
    });
    this.notices.sent();
    return { ok: true, value: undefined };
  }
}

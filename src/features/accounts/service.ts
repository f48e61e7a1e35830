import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, User } from '../../db/schema.js';
import { hashPassword, spendVerificationTime, verifyPassword } from '../../platform/passwords/passwords.js';
import { passwordProblems } from '../../platform/passwords/password-rules.js';
import { type SessionStore, sessionAuthHash } from '../../platform/chain/session.js';
import type { Outcome } from '../../platform/forms.js';
import { UsersRepository } from './repository.js';
import { lookalikeProblem } from './lookalikes.js';
import { TokensRepository } from './tokens-repository.js';
import { TwoFactorRepository } from './two-factor-repository.js';
import type { AccountNotices } from './notices.js';
import type { Translator } from '../../platform/i18n/index.js';

/** Which mail a new password sends its owner, and in which language (absent: the owner's own). */
type PasswordNotice = { kind: 'password_changed' | 'admin_password'; t?: Translator };
import { timeZoneOr } from '../../platform/time-zones.js';


export class AccountsService {
  readonly users: UsersRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Config,
    private readonly sessions: SessionStore,
    /** Mail to the owner about a new password; without it (tests of other things) none is sent. */
    private readonly notices?: AccountNotices,
  ) {
    this.users = new UsersRepository(db);
  }

  /**
   * The user whose password this is, or null. An unknown username costs the same hashing time
   * as a wrong password, so the answer time does not reveal which usernames exist. The last login
   * is not recorded here: with 2FA on, the password alone signs nobody in (`signedIn` does it).
   */
  async authenticate(username: string, password: string): Promise<User | null> {
    const user = await this.users.findByUsername(username);
    if (!user || user.is_active !== 1) {
      await spendVerificationTime(password, this.config.pbkdf2Iterations);
      return null;
    }
    const { ok, needsRehash } = await verifyPassword(password, user.password, this.config.pbkdf2Iterations);
    if (!ok) return null;
    if (needsRehash) user.password = await this.rehash(user, password);
    return user;
  }

  /**
   * Stores a hash of the same password at the configured cost and moves the user's sessions over
   * to it, in one transaction; returns the hash now stored. When another login re-hashed first,
   * its hash is kept (and its sessions with it).
   */
  private async rehash(user: User, password: string): Promise<string> {
    const stronger = await hashPassword(password, this.config.pbkdf2Iterations);
    return this.db.transaction().execute(async (trx) => {
      const users = new UsersRepository(trx);
      if (!(await users.replacePassword(user.id, user.password, stronger))) return (await users.findById(user.id))?.password ?? user.password;
      const authHash = (hash: string) => sessionAuthHash(this.config.secretKey, hash);
      await this.sessions.withDb(trx).carryOverAuthHash(user.id, authHash(user.password), authHash(stronger));
      return stronger;
    });
  }

  async createUser(input: { username: string; email: string; password: string; timezone?: string }): Promise<Outcome<User>> {
    const problems = passwordProblems(input.password, input);
    if (problems.length > 0) return { ok: false, errors: { password1: problems } };
    const lookalike = lookalikeProblem(input.username);
    if (lookalike) return { ok: false, errors: { username: [lookalike] } };
    if (await this.users.findByUsername(input.username)) return usernameTaken();
    if (await this.users.findLookalike(input.username)) return usernameLooksTaken();
    const password = await hashPassword(input.password, this.config.pbkdf2Iterations);
    try {
      const timezone = timeZoneOr(input.timezone);
      return { ok: true, value: await this.users.insert({ username: input.username, email: input.email, password, timezone }) };
    } catch (error) {
      // Two registrations of one name, or of two names that look alike, at once: the unique indexes decide.
      if (isUniqueViolation(error)) return (await this.users.findByUsername(input.username)) ? usernameTaken() : usernameLooksTaken();
      throw error;
    }
  }

  /**
   * Saves the account page with a new email address, the caller having confirmed the password:
   * the old address is told, in the same transaction (the new one is trusted with nothing for it).
   */
  async changeEmail(user: User, account: { email: string; timezone: string; currency: string; language: string }, t: Translator): Promise<void> {
    const email = account.email || t.t('notice_mail.no_address');
    await this.db.transaction().execute(async (trx) => {
      await new UsersRepository(trx).setAccount(user.id, account);
      await this.notices?.queueIn(trx, { kind: 'email_changed', to: user, values: { email }, t });
    });
    this.notices?.sent();
  }

  /**
   * Sets a new password and ends the user's other sessions (and their API tokens, if asked), in
   * one transaction; returns the ended session keys.
   */
  async setPassword(
    user: { id: number; username: string; email: string; language?: string },
    newPassword: string,
    { keepSessionKey, revokeTokens, notice }: { keepSessionKey?: string; revokeTokens: boolean; notice: PasswordNotice },
  ): Promise<string[]> {
    const hash = await hashPassword(newPassword, this.config.pbkdf2Iterations);
    const endedKeys = await this.db.transaction().execute(async (trx) => {
      await new UsersRepository(trx).setPassword(user.id, hash);
      // A two-factor secret shown before the change is no longer good to enrol with.
      await new TwoFactorRepository(trx).dropEnrolments(user.id);
      await this.notices?.queueIn(trx, { kind: notice.kind, to: user, t: notice.t });
      if (revokeTokens) await new TokensRepository(trx).revokeAll(user.id);
      const ended = await this.sessions.withDb(trx).deleteForUser(user.id, keepSessionKey);
      if (keepSessionKey) {
        await this.sessions.withDb(trx).updateAuthHash(keepSessionKey, user.id, sessionAuthHash(this.config.secretKey, hash));
      }
      return ended;
    });
    this.notices?.sent();
    return endedKeys;
  }

  /** An administrator's reset: the password rules apply, and every session and API token of the user ends. */
  async setNewPassword(user: User, newPassword: string): Promise<Outcome<string[]>> {
    const problems = passwordProblems(newPassword, user);
    if (problems.length > 0) return { ok: false, errors: { password: problems } };
    return { ok: true, value: await this.setPassword(user, newPassword, { revokeTokens: true, notice: { kind: 'admin_password' } }) };
  }

  async changePassword(
    userId: number,
    form: { old_password: string; new_password1: string; revoke_tokens: boolean },
    sessionKey: string,
    t?: Translator,
  ): Promise<Outcome<string[]>> {
    const user = await this.users.findById(userId);
    if (!user) return { ok: false, errors: { __all__: ['form.account_gone'] } };
    const { ok } = await verifyPassword(form.old_password, user.password, this.config.pbkdf2Iterations);
    if (!ok) return { ok: false, errors: { old_password: ['form.old_password_wrong'] } };
    const problems = passwordProblems(form.new_password1, user);
    if (problems.length > 0) return { ok: false, errors: { new_password2: problems } };
    return { ok: true, value: await this.setPassword(user, form.new_password1, { keepSessionKey: sessionKey, revokeTokens: form.revoke_tokens, notice: { kind: 'password_changed', t } }) };
  }
}

function usernameTaken(): Outcome<User> {
  return { ok: false, errors: { username: ['form.username_taken'] } };
}

/** Another user's name looks the same (TR39 skeletons, lookalikes.ts): refused like a taken one. */
function usernameLooksTaken(): Outcome<User> {
  return { ok: false, errors: { username: ['form.username_lookalike'] } };
}

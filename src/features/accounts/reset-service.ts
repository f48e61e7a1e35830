import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, User } from '../../db/schema.js';
import type { SessionStore } from '../../platform/chain/session.js';
import type { Mail } from '../../platform/mail/mailer.js';
import type { Outbox } from '../../platform/mail/outbox.js';
import { type Translator, chooseLanguage, translator } from '../../platform/i18n/index.js';
import { hashPassword } from '../../platform/passwords/passwords.js';
import { passwordProblems } from '../../platform/passwords/password-rules.js';
import { UsersRepository } from './repository.js';
import { AccountNotices } from './notices.js';
import { TokensRepository } from './tokens-repository.js';
import { checkResetToken, decodeUid, encodeUid, makeResetToken } from './reset-tokens.js';
import type { Outcome } from '../../platform/forms.js';

export class PasswordResetService {
  private readonly users: UsersRepository;
  private readonly notices: AccountNotices;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Config,
    private readonly sessions: SessionStore,
    private readonly outbox: Outbox,
  ) {
    this.users = new UsersRepository(db);
    this.notices = new AccountNotices(outbox, config.publicUrl);
  }

  /**
   * Queues a reset mail to each active account with this address. Known and unknown addresses
   * cost the same: one lookup, one INSERT (of no rows for an unknown one), no early return.
   */
  async requestReset(email: string, t: Translator): Promise<void> {
    const users = await this.users.findActiveByEmail(email);
    await this.outbox.enqueue(users.map((user) => this.resetMail(user, t)));
  }

  /**
   * Queues the same reset mail to this one user, in the caller's transaction `db` (an
   * administrator's "send a password-reset mail"); call `mailQueued()` once it has committed. It
   * speaks the user's own language (English when they chose none), not the administrator's.
   */
  async queueResetIn(db: Kysely<Database>, user: User): Promise<void> {
    await this.outbox.enqueueIn(db, [this.resetMail(user, translator(chooseLanguage(undefined, user.language)))]);
  }

  mailQueued(): void {
    this.outbox.wake();
  }

  resetLink(user: User): string {
    return `${this.config.publicUrl}/accounts/reset/${encodeUid(user.id)}/${makeResetToken(this.config.secretKey, user)}/`;
  }

  private resetMail(user: User, t: Translator): Mail {
    return {
      to: user.email,
      subject: t.t('reset_mail.subject'),
      text: [
        t.t('reset_mail.someone', { site: this.config.publicUrl }),
        '',
        t.t('reset_mail.username', { username: user.username }),
        '',
        t.t('reset_mail.follow'),
        this.resetLink(user),
        '',
        t.t('reset_mail.ignore'),
      ].join('\n'),
    };
  }

  /** The active user a link is for, while its token holds; undefined for any bad link, alike. */
  async userForLink(uidb64: string, token: string): Promise<User | undefined> {
    const id = decodeUid(uidb64);
    const user = id === undefined ? undefined : await this.users.findById(id);
    if (!user || user.is_active !== 1) return undefined;
    return checkResetToken(this.config.secretKey, user, token) ? user : undefined;
  }

  /**
   * Sets the new password and ends every session and API token of the user (their sockets close
   * with the sessions), in one transaction. Only if the password is still the one the token was
   * checked against: of two submissions of one link, one wins. Returns null when it lost. The
   * owner is told by mail, in `t`'s language (by default their own).
   */
  async setPassword(user: User, newPassword: string, t?: Translator): Promise<Outcome<string[]> | null> {
    const problems = passwordProblems(newPassword, user);
    if (problems.length > 0) return { ok: false, errors: { new_password2: problems } };
    const hash = await hashPassword(newPassword, this.config.pbkdf2Iterations);
    const set = await this.db.transaction().execute(async (trx) => {
      if (!(await new UsersRepository(trx).replacePassword(user.id, user.password, hash))) return null;
      await new TokensRepository(trx).revokeAll(user.id);
      await this.notices.queueIn(trx, { kind: 'password_reset', to: user, t });
      return { ok: true as const, value: await this.sessions.withDb(trx).deleteForUser(user.id) };
    });
    if (set) this.notices.sent();
    return set;
  }
}

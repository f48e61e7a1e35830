import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Outbox } from '../../platform/mail/outbox.js';
import { type Translator, chooseLanguage, translator } from '../../platform/i18n/index.js';
import type { Mail } from '../../platform/mail/mailer.js';

// Mail that tells an account's owner of a change to how one gets into the account, so that a
// change made from a borrowed session does not go unseen. It names what changed and never
// carries a secret (no token, no code, no link that does anything).

/** What happened; each has its subject and sentence in the catalogue (`notice_mail.<kind>...`). */
export type NoticeKind =
  | 'email_changed'
  | 'password_changed'
  | 'password_reset'
  | 'two_factor_on'
  | 'two_factor_off'
  | 'token_created'
  | 'admin_password'
  | 'admin_two_factor_off';

const SUBJECTS = {
  email_changed: 'notice_mail.email_changed.subject',
  password_changed: 'notice_mail.password_changed.subject',
  password_reset: 'notice_mail.password_reset.subject',
  two_factor_on: 'notice_mail.two_factor_on.subject',
  two_factor_off: 'notice_mail.two_factor_off.subject',
  token_created: 'notice_mail.token_created.subject',
  admin_password: 'notice_mail.admin_password.subject',
  admin_two_factor_off: 'notice_mail.admin_two_factor_off.subject',
} as const;

const BODIES = {
  email_changed: 'notice_mail.email_changed.body',
  password_changed: 'notice_mail.password_changed.body',
  password_reset: 'notice_mail.password_reset.body',
  two_factor_on: 'notice_mail.two_factor_on.body',
  two_factor_off: 'notice_mail.two_factor_off.body',
  token_created: 'notice_mail.token_created.body',
  admin_password: 'notice_mail.admin_password.body',
  admin_two_factor_off: 'notice_mail.admin_two_factor_off.body',
} as const;

export interface Notice {
  kind: NoticeKind;
  /** The account, with the address the notice goes to (for an email change: the old one) and its language setting. */
  to: { username: string; email: string; language?: string };
  /** Filled into the sentence: `email` (the new address), `name` and `scope` (a token's). */
  values?: Record<string, string>;
  /** The language of the page that made the change; absent (an administrator's change), the owner's own setting, else English. */
  t?: Translator;
}

export class AccountNotices {
  constructor(
    private readonly outbox: Outbox,
    private readonly publicUrl: string,
  ) {}

  /**
   * Queues the notice in the caller's transaction `db`, so that it goes if and only if the change
   * commits; call `sent()` after the commit. An account without an address is told nothing.
   */
  async queueIn(db: Kysely<Database>, notice: Notice): Promise<void> {
    if (!notice.to.email) return;
    await this.outbox.enqueueIn(db, [this.mail(notice)]);
  }

  private mail(notice: Notice): Mail {
    const t = notice.t ?? translator(chooseLanguage(undefined, notice.to.language));
    return { to: notice.to.email, subject: t.t(SUBJECTS[notice.kind]), text: this.text(notice, t) };
  }

  /** Queues the notice on its own, after the change it tells of was committed. */
  async send(notice: Notice): Promise<void> {
    if (!notice.to.email) return;
    await this.outbox.enqueue([this.mail(notice)]);
  }

  /** Tells the mail sender that notices were queued. */
  sent(): void {
    this.outbox.wake();
  }

  private text({ kind, to, values = {} }: Notice, t: Translator): string {
    const site = this.publicUrl;
    return [
      t.t('notice_mail.hello', { username: to.username }),
      '',
      t.t(BODIES[kind], { site, ...values }),
      '',
      t.t('notice_mail.not_you', { site }),
    ].join('\n');
  }
}

import type { Mailer, MailLog } from './mailer.js';
import type { Outbox, QueuedMail } from './outbox.js';

export interface SenderOptions {
  /** Mails claimed (and sent at once) per round. */
  batchSize: number;
  /** Attempts before a mail is logged and given up. */
  maxAttempts: number;
  /** The wait after the first failure, doubled after each further one, up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How often the outbox is looked at for mail queued elsewhere or due again. */
  pollMs: number;
  /** A claim's length: longer than any send may take, so no other sender takes a mail being sent. */
  leaseMs: number;
  /** One send's bound, whatever the SMTP server does. */
  sendTimeoutMs: number;
  /** How long a shutdown waits for the sends under way (they are retried after their claim otherwise). */
  stopWaitMs: number;
}

/** Eight attempts over about four hours: an SMTP server down for a short while loses nothing. */
export const DEFAULT_SENDER_OPTIONS: SenderOptions = {
  batchSize: 20,
  maxAttempts: 8,
  retryBaseMs: 60_000,
  retryMaxMs: 2 * 60 * 60 * 1000,
  pollMs: 10_000,
  leaseMs: 5 * 60 * 1000,
  sendTimeoutMs: 45_000,
  stopWaitMs: 1_000,
};

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the mail server within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The background loop that empties the outbox: every instance runs one, and the claim in
 * Outbox.claimDue keeps two from sending one mail. It never throws: a failure is logged and the
 * mail retried with back-off, and after maxAttempts given up (logged as an error).
 */
export class MailSender {
  private readonly options: SenderOptions;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private started = false;
  private stopped = false;
  /** Mail was queued while a round ran: run another straight after. */
  private again = false;

  constructor(
    private readonly outbox: Outbox,
    private readonly mailer: Mailer,
    private readonly log: MailLog,
    options: Partial<SenderOptions> = {},
  ) {
    this.options = { ...DEFAULT_SENDER_OPTIONS, ...options };
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.schedule(0);
  }

  /** Sends what is due now rather than at the next poll (this instance queued mail). */
  wake(): void {
    if (!this.started || this.stopped) return;
    if (this.round) this.again = true;
    else this.schedule(0);
  }

  /** Stops the loop; waits a little for the sends under way, then closes the mailer. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.round) await Promise.race([this.round, new Promise((resolve) => setTimeout(resolve, this.options.stopWaitMs).unref())]);
    this.mailer.close();
  }

  /** One round: claims a batch and sends it; returns how many mails it claimed. */
  async sendDue(): Promise<number> {
    const mails = await this.outbox.claimDue(this.options.batchSize, this.options.leaseMs);
    await Promise.all(mails.map((mail) => this.sendOne(mail)));
    return mails.length;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.runRound(), ms);
    // The loop alone does not keep a process alive.
    this.timer.unref();
  }

  private async runRound(): Promise<void> {
    if (this.round || this.stopped) return;
    let claimed = 0;
    this.again = false;
    this.round = this.sendDue().then(
      (count) => {
        claimed = count;
      },
      (error: unknown) => this.log.error({ err: error }, 'mail outbox round failed'),
    );
    await this.round;
    this.round = undefined;
    if (this.stopped) return;
    // A full batch may mean more is due.
    this.schedule(this.again || claimed === this.options.batchSize ? 0 : this.options.pollMs);
  }

  private async sendOne(mail: QueuedMail): Promise<void> {
    try {
      await withTimeout(this.mailer.send(mail), this.options.sendTimeoutMs);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (mail.attempts >= this.options.maxAttempts) {
        // Removed first, so that whoever reads the error finds the mail gone from the outbox.
        await this.outbox.remove(mail.id);
        this.log.error({ mailId: mail.id, to: mail.to, subject: mail.subject, attempts: mail.attempts, reason }, 'mail given up: every attempt failed');
        return;
      }
      const delay = Math.min(this.options.retryMaxMs, this.options.retryBaseMs * 2 ** (mail.attempts - 1));
      this.log.warn({ mailId: mail.id, to: mail.to, attempts: mail.attempts, retryInMs: delay, reason }, 'mail not sent; will retry');
      await this.outbox.retryAt(mail.id, Date.now() + delay, reason);
      return;
    }
    await this.outbox.remove(mail.id);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Built with the app, stopped when it closes; started by server.ts (tests start it when they send mail). */
    mailSender: MailSender;
  }
}

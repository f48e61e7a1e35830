import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

/** One plain-text mail to one address. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Hands a mail over for delivery; rejects when it was not taken. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export type MailLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/**
 * Each step of an SMTP exchange is bounded, so that a mail server that accepts the connection and
 * then says nothing holds a sender for seconds, not for good. The whole send stays under
 * SEND_TIMEOUT_MS (sender.ts), itself well under the claim a sender holds on a mail.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000, dnsTimeout: 10_000 };

/** Over SMTP_URL; without it, each mail is written to the log in full, so a developer can follow its links. */
export function createMailer(smtpUrl: string | undefined, from: string, log: MailLog): Mailer {
  if (!smtpUrl) {
    return {
      send: async (mail) => log.info({ mail: { from, ...mail } }, `mail to ${mail.to} (SMTP_URL unset, so written here):\n${mail.text}`),
      close: () => undefined,
    };
  }
  const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS }, { from });
  return {
    send: async (mail) => {
      await transport.sendMail(mail);
    },
    close: () => transport.close(),
  };
}

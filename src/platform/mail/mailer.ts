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

/** `anna@example.com` as `a***@example.com`: whom a mail was for, without a list of the users' addresses. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 1 ? '***' : `${address[0]}***${address.slice(at)}`;
}

/**
 * Over SMTP_URL. Without it (unset in development, `off` anywhere) a mail is not sent, and the log
 * says so with its masked address and subject, never its body: a reset link in a log is a way into
 * the account for whoever reads the log.
 */
export function createMailer(smtpUrl: string | undefined, from: string, log: MailLog): Mailer {
  if (!smtpUrl) {
    return {
      send: async (mail) => log.info({ to: maskAddress(mail.to), subject: mail.subject }, 'mail not sent: SMTP_URL is unset or off'),
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

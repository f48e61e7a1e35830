import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { SMTPServer } from 'smtp-server';
import type { Database } from '../src/db/schema.js';

export interface ReceivedMail {
  to: string[];
  /** Headers and body as sent; `text` is the body with quoted-printable undone. */
  raw: string;
  text: string;
  subject: string;
  at: number;
}

/** Undoes quoted-printable (soft line breaks, =XX bytes), which long lines such as links get. */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * A real SMTP server on a free port, recording what it accepts. `refuse` makes it answer the
 * next that many messages with a temporary failure (451); `delayMs` slows each one down.
 */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  /** Every DATA it was offered, accepted or not. */
  offered = 0;
  refuse = 0;
  delayMs = 0;
  private server!: SMTPServer;
  url = '';

  /** `onReceived` hears each mail accepted (the browser journeys write them to a file their tests read). */
  static async start(onReceived?: (mail: ReceivedMail) => void): Promise<TestSmtpServer> {
    const smtp = new TestSmtpServer();
    smtp.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          smtp.offered += 1;
          const finish = () => {
            if (smtp.refuse > 0) {
              smtp.refuse -= 1;
              callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
              return;
            }
            const raw = Buffer.concat(chunks).toString('utf8');
            const split = raw.indexOf('\r\n\r\n');
            const headers = raw.slice(0, split);
            const mail: ReceivedMail = {
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              raw,
              text: /quoted-printable/i.test(headers) ? decodeQuotedPrintable(raw.slice(split + 4)) : raw.slice(split + 4),
              subject: /^Subject: (.*)$/m.exec(headers)?.[1]?.trim() ?? '',
              at: Date.now(),
            };
            smtp.received.push(mail);
            onReceived?.(mail);
            callback();
          };
          if (smtp.delayMs > 0) setTimeout(finish, smtp.delayMs);
          else finish();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
    smtp.url = `smtp://127.0.0.1:${(smtp.server.server.address() as AddressInfo).port}`;
    return smtp;
  }

  /** Resolves with what was received once there are `count` mails (fails the test after the timeout). */
  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} mail(s), got ${this.received.length}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.received;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Resolves once the mail outbox is empty: every mail queued so far has been handed to the SMTP
 * server (a row leaves the outbox when the server accepts it). Fails the test after the timeout.
 */
export async function outboxEmptied(db: Kysely<Database>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await db.selectFrom('mail_outbox').select('id').limit(1).execute()).length > 0) {
    if (Date.now() > deadline) throw new Error('the mail outbox was not emptied in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

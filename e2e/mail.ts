import { readFileSync } from 'node:fs';
import { expect, inject } from 'vitest';

export interface SentMail {
  to: string[];
  subject: string;
  text: string;
}

function sentMails(): SentMail[] {
  return readFileSync(inject('mailLog'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as SentMail);
}

/** How many mails the journeys' SMTP server has received so far. */
export function mailCount(): number {
  return sentMails().length;
}

/** The first mail to `address` received after the first `after` mails, once it arrives. */
export async function mailTo(address: string, after: number): Promise<SentMail> {
  let found: SentMail | undefined;
  await expect
    .poll(() => (found = sentMails().slice(after).find((mail) => mail.to.includes(address))), { timeout: 15_000, message: `a mail to ${address}` })
    .toBeDefined();
  return found!;
}

/** The path of the reset link in a mail (its origin is the server's PUBLIC_URL, the journeys' own). */
export function resetLinkIn(mail: SentMail): string {
  const link = /https?:\/\/[^\s/]+(\/accounts\/reset\/[^/\s]+\/[^/\s]+\/)/.exec(mail.text);
  expect(link, 'a reset link in the mail').not.toBeNull();
  expect(mail.text).toContain(`${inject('baseUrl')}/accounts/reset/`);
  return link![1]!;
}

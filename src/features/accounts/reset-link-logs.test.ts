// What the log keeps of a password-reset link: its path with the token redacted, never the token, the link or the mail.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, LogCapture, type TestApp, TestBrowser } from '../../../test/index.js';
import { encodeUid, makeResetToken } from './reset-tokens.js';

const NEW_PASSWORD = 'lighthouse-keeper-42';
let t: TestApp;
let log: LogCapture;

beforeAll(async () => {
  log = new LogCapture();
  // No SMTP_URL, at the default level: as `npm start` runs on a fresh machine.
  t = await buildTestApp({ LOG_LEVEL: 'info' }, undefined, log);
});
afterAll(() => t.close());
beforeEach(() => {
  log.lines.length = 0;
});

/** The request lines written for paths under `prefix`: method, path and status. */
const requestLines = (prefix: string) =>
  log
    .entries()
    .filter((entry) => entry.msg === 'request' && String(entry.path).startsWith(prefix))
    .map((entry) => [entry.method, entry.path, entry.status]);

/** A live link for a new user with an email address. */
async function liveLink() {
  const user = await createUser(t.db, { email: `reset${Date.now()}@example.test` });
  const uid = encodeUid(user.id);
  const token = makeResetToken(t.config.secretKey, user);
  return { user, uid, token, path: `/accounts/reset/${uid}/${token}/` };
}

/** Neither the token nor its signature (the part after the timestamp) is anywhere in the log. */
function expectNotLogged(token: string): void {
  expect(log.lines.length).toBeGreaterThan(0);
  expect(log.text()).not.toContain(token);
  expect(log.text()).not.toContain(token.slice(token.indexOf('-') + 1));
}

describe('a reset link in the log', () => {
  it('is written with its token redacted, for the GET of the form and the POST of the new password', async () => {
    const { uid, token, path } = await liveLink();
    const browser = new TestBrowser(t.app);
    expect((await browser.get(path)).statusCode).toBe(200);
    expect((await browser.post(path, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD })).statusCode).toBe(302);
    expect(requestLines(`/accounts/reset/${uid}/`)).toEqual([
      ['GET', `/accounts/reset/${uid}/[redacted]/`, 200],
      ['POST', `/accounts/reset/${uid}/[redacted]/`, 302],
    ]);
    expectNotLogged(token);
  });

  it('is redacted when it is not a route: without its trailing slash, with a forged token, with its query', async () => {
    const { uid, token } = await liveLink();
    const browser = new TestBrowser(t.app);
    expect((await browser.get(`/accounts/reset/${uid}/${token}`)).statusCode).toBe(301);
    expect((await browser.get(`/accounts/reset/${uid}/${token}x/?next=/notes/`)).statusCode).toBe(400);
    expect(requestLines(`/accounts/reset/${uid}/`)).toEqual([
      ['GET', `/accounts/reset/${uid}/[redacted]`, 301],
      ['GET', `/accounts/reset/${uid}/[redacted]/`, 400],
    ]);
    expectNotLogged(token);
  });

  it('keeps the token out of the lines of a request that fails with a 500', async () => {
    const { uid, token, path } = await liveLink();
    // The page's first query finds no table: an error inside the handler, logged at error level.
    await t.db.schema.alterTable('users').renameTo('users_away').execute();
    try {
      expect((await new TestBrowser(t.app).get(path)).statusCode).toBe(500);
    } finally {
      await t.db.schema.alterTable('users_away').renameTo('users').execute();
    }
    expect(log.entries().filter((entry) => entry.level === 50).map((entry) => entry.msg)).toEqual(['request failed']);
    expect(requestLines(`/accounts/reset/${uid}/`)).toEqual([['GET', `/accounts/reset/${uid}/[redacted]/`, 500]]);
    expectNotLogged(token);
  });
});

describe('a mail not sent (no SMTP_URL)', () => {
  it('is logged by its masked address and subject, never by its body or link', async () => {
    await createUser(t.db, { email: 'frank.n@example.test' });
    expect((await new TestBrowser(t.app, 'localhost', '10.9.0.1').post('/accounts/password_reset/', { email: 'frank.n@example.test' })).statusCode).toBe(302);
    const queued = await t.db.selectFrom('mail_outbox').select('body').where('recipient', '=', 'frank.n@example.test').executeTakeFirstOrThrow();
    const token = /\/accounts\/reset\/[^/\s]+\/([^/\s]+)\//.exec(queued.body)![1]!;
    // Every mail queued so far (the earlier tests' notices too) goes the same way.
    while ((await t.app.mailSender.sendDue()) > 0);
    expect(await t.db.selectFrom('mail_outbox').select('id').execute()).toEqual([]);
    const notSent = log.entries().filter((entry) => entry.msg === 'mail not sent: SMTP_URL is unset or off' && entry.to === 'f***@example.test');
    expect(notSent).toHaveLength(1);
    expect(notSent[0]).toMatchObject({ level: 30, subject: 'Reset your groupnotes password' });
    expectNotLogged(token);
    expect(log.text()).not.toContain('frank.n@');
    expect(log.text()).not.toContain('in case you have forgotten it');
  });
});

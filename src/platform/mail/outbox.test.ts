import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, TestSmtpServer } from '../../../test/index.js';
import { type DatabaseHandle, openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createMailer, type Mail, type MailLog } from './mailer.js';
import { Outbox } from './outbox.js';
import { MailSender, type SenderOptions } from './sender.js';

/** What a sender logged, by level; `onLine` is called as each line is written. */
function recordingLog(onLine: (level: string) => void = () => undefined) {
  const lines: { level: string; args: unknown[] }[] = [];
  const at = (level: string) => (...args: unknown[]) => {
    lines.push({ level, args });
    onLine(level);
  };
  const log: MailLog = { info: at('info'), warn: at('warn'), error: at('error') };
  return { log, lines };
}

const FAST: Partial<SenderOptions> = { pollMs: 20, retryBaseMs: 50, retryMaxMs: 1_000, stopWaitMs: 200 };
const mail = (n: number): Mail => ({ to: `person${n}@example.test`, subject: `Mail ${n}`, text: `Hello number ${n}` });

let testDb: TestDatabase;
let database: DatabaseHandle;
let smtp: TestSmtpServer;
const running: MailSender[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = openDatabase(testDb.url, { poolSize: 4 });
  await migrateToLatest(database.db);
  smtp = await TestSmtpServer.start();
});

afterEach(async () => {
  for (const sender of running.splice(0)) await sender.stop();
  await database.db.deleteFrom('mail_outbox').execute();
  smtp.received.length = 0;
  smtp.offered = 0;
  smtp.refuse = 0;
  smtp.delayMs = 0;
});

afterAll(async () => {
  await database.close();
  await smtp.close();
  await testDb.drop();
});

function startSender(db: DatabaseHandle, log: MailLog, options: Partial<SenderOptions> = {}) {
  const sender = new MailSender(new Outbox(db.db, db.dialect), createMailer(smtp.url, 'groupnotes <noreply@example.test>', log), log, { ...FAST, ...options });
  running.push(sender);
  sender.start();
  return sender;
}

const queued = () => database.db.selectFrom('mail_outbox').selectAll().execute();

describe('the outbox', () => {
  it('sends a queued mail through SMTP and removes it from the outbox', async () => {
    const { log } = recordingLog();
    startSender(database, log);
    await new Outbox(database.db, database.dialect).enqueue([mail(1)]);
    const [received] = await smtp.waitFor(1);
    expect(received!.to).toEqual(['person1@example.test']);
    expect(received!.subject).toBe('Mail 1');
    expect(received!.text).toContain('Hello number 1');
    await expect.poll(async () => (await queued()).length).toBe(0);
  });

  it('retries a mail the SMTP server refused, waiting longer each time, and sends it once it is taken', async () => {
    const { log, lines } = recordingLog();
    smtp.refuse = 2;
    startSender(database, log);
    await new Outbox(database.db, database.dialect).enqueue([mail(2)]);
    await smtp.waitFor(1);
    expect(smtp.offered).toBe(3);
    const warnings = lines.filter((line) => line.level === 'warn').map((line) => line.args[0] as { attempts: number; retryInMs: number });
    expect(warnings.map((warning) => [warning.attempts, warning.retryInMs])).toEqual([[1, 50], [2, 100]]);
    await expect.poll(async () => (await queued()).length).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it('gives a mail up after the last attempt, and logs it as an error once it is out of the outbox', async () => {
    // What the outbox held when the error was logged, read as the line is written.
    let queuedAtError: Promise<unknown[]> | undefined;
    const { log, lines } = recordingLog((level) => {
      if (level === 'error') queuedAtError = queued();
    });
    smtp.refuse = 1_000;
    startSender(database, log, { maxAttempts: 3 });
    await new Outbox(database.db, database.dialect).enqueue([mail(3)]);
    await expect.poll(() => lines.some((line) => line.level === 'error'), { timeout: 5_000 }).toBe(true);
    expect(smtp.offered).toBe(3);
    expect(lines.find((line) => line.level === 'error')!.args[0]).toMatchObject({ to: 'person3@example.test', attempts: 3 });
    expect(await queuedAtError).toEqual([]);
    expect(await queued()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.offered).toBe(3);
  });

  it('keeps a mail that is not due yet until it is', async () => {
    const { log } = recordingLog();
    await new Outbox(database.db, database.dialect).enqueue([mail(4)], Date.now() + 400);
    startSender(database, log);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received).toHaveLength(0);
    await smtp.waitFor(1);
  });

  it('sends each mail once while two instances (each with its own connections) empty one outbox', async () => {
    const other = openDatabase(testDb.url, { poolSize: 4 });
    try {
      const { log } = recordingLog();
      smtp.delayMs = 5;
      await new Outbox(database.db, database.dialect).enqueue(Array.from({ length: 60 }, (_, n) => mail(100 + n)));
      // Both pools connected, so that the two start claiming at the same moment.
      await Promise.all([database, other].map((handle) => handle.db.selectFrom('mail_outbox').select('id').limit(1).execute()));
      startSender(database, log, { batchSize: 3, pollMs: 1 });
      startSender(other, log, { batchSize: 3, pollMs: 1 });
      await smtp.waitFor(60);
      await expect.poll(async () => (await queued()).length).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const recipients = smtp.received.map((received) => received.to[0]);
      expect(recipients).toHaveLength(60);
      expect(new Set(recipients).size).toBe(60);
    } finally {
      for (const sender of running.splice(0)) await sender.stop();
      await other.close();
    }
  });
});

describe('stopping', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // Takes connections and never says a word: a mail server that hangs.
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('takes no longer than its wait, though a send hangs, and the mail is sent later by another', async () => {
    const { log } = recordingLog();
    const hanging = new MailSender(
      new Outbox(database.db, database.dialect),
      createMailer(`smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`, 'noreply@example.test', log),
      log,
      { ...FAST, leaseMs: 300 },
    );
    hanging.start();
    await new Outbox(database.db, database.dialect).enqueue([mail(5)]);
    await expect.poll(() => sockets.length).toBe(1);
    const started = Date.now();
    await hanging.stop();
    expect(Date.now() - started).toBeLessThan(600);
    // Its claim runs out and another sender delivers the mail.
    startSender(database, log);
    const [received] = await smtp.waitFor(1);
    expect(received!.to).toEqual(['person5@example.test']);
  });
});

describe('without SMTP_URL (unset, or off)', () => {
  it('logs that a mail was not sent, to a masked address with its subject, never its body', async () => {
    const { log, lines } = recordingLog();
    const mailer = createMailer(undefined, 'noreply@example.test', log);
    await mailer.send({ to: 'anna.k@example.test', subject: 'Hi', text: 'Follow http://x.test/reset/MQ/secret-token/' });
    await mailer.send({ to: 'not-an-address', subject: 'Hello', text: 'Body' });
    expect(lines.map((line) => [line.level, ...line.args])).toEqual([
      ['info', { to: 'a***@example.test', subject: 'Hi' }, 'mail not sent: SMTP_URL is unset or off'],
      ['info', { to: '***', subject: 'Hello' }, 'mail not sent: SMTP_URL is unset or off'],
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/secret-token|Follow|Body|anna/);
  });
});

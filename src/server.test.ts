import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testConfig, type TestDatabase } from '../test/index.js';
import { type RunningServer, serve, startServer } from './server.js';

// What a SIGTERM does to connections, over real sockets: the basis of a rolling restart behind
// nginx that loses no request (test/deploy/restart.deploy.ts).

let testDb: TestDatabase | undefined;
afterEach(async () => {
  await testDb?.drop();
  testDb = undefined;
});

async function start(): Promise<{ server: RunningServer; port: number }> {
  testDb = await createTestDatabase();
  const server = await startServer(testConfig({ DATABASE_URL: testDb.url, PORT: '0' }));
  const address = server.app.server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

interface Connection {
  socket: Socket;
  text(): string;
  ended: Promise<void>;
}

function open(port: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => resolve({ socket, text: () => text, ended }));
    const ended = new Promise<void>((done) => socket.once('close', () => done()));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.once('error', reject);
  });
}

async function waitForText(connection: Connection, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!pattern.test(connection.text())) {
    if (Date.now() > deadline) throw new Error(`no ${pattern} in ${JSON.stringify(connection.text())}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const HEALTHZ = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n';

describe('graceful shutdown', () => {
  it('refuses new connections at once, but answers requests on open ones (Connection: close) and then ends', async () => {
    const { server, port } = await start();
    const kept = await open(port);
    kept.socket.write(HEALTHZ);
    await waitForText(kept, /"status":"ok"/);
    const body = 'username=nobody&password=wrong';
    const busy = await open(port);
    busy.socket.write(`POST /accounts/login/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const started = Date.now();
    let closed = false;
    const closing = server.close({ drainMs: 10_000 }).then(() => (closed = true));
    await expect(open(port)).rejects.toThrow(/ECONNREFUSED/);

    // A kept-alive connection that was idle when the shutdown began is not cut: a proxy may be
    // sending on it right now. Its next request is answered, and the connection ends with it.
    const before = kept.text().length;
    kept.socket.write(HEALTHZ);
    await kept.ended;
    const second = kept.text().slice(before);
    expect(second).toMatch(/^HTTP\/1\.1 200 /);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);

    // The request in flight goes through the app as usual (the CSRF layer's 403: no token).
    expect(closed).toBe(false);
    busy.socket.write(body.slice(10));
    await Promise.all([busy.ended, closing]);
    expect(busy.text()).toMatch(/^HTTP\/1\.1 403 /);
    expect(busy.text()).toMatch(/\r\nconnection: close\r\n/i);
    // Done as soon as no connection was left, long before the 10 s allowed.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('cuts a connection that stays idle for the whole drain time, then closes', async () => {
    const { server, port } = await start();
    const idle = await open(port);
    idle.socket.write(HEALTHZ);
    await waitForText(idle, /"status":"ok"/);
    const started = Date.now();
    await server.close({ drainMs: 300 });
    await idle.ended;
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('serve', () => {
  it('refuses to start, before touching the database, when a file pages link is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'groupnotes-serve-'));
    try {
      const database = join(dir, 'never.sqlite3');
      const emptyPublic = join(dir, 'public');
      await expect(serve(testConfig({ DATABASE_URL: `sqlite:${database}`, PORT: '0', WEB_CONCURRENCY: '1' }), emptyPublic)).rejects.toThrow(
        `missing ${join(emptyPublic, 'favicon.svg')}, ${join(emptyPublic, 'vendor/pico.min.css')}`,
      );
      expect(existsSync(database)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

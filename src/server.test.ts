import { type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../test/database.js';
import { testConfig } from '../test/helpers.js';
import { type RunningServer, startServer } from './server.js';

// What a SIGTERM does to connections (server.close()), over real sockets: the basis of a
// rolling restart behind nginx that loses no request (test/deploy/restart.deploy.ts).

let testDb: TestDatabase;
let server: RunningServer;
let port: number;
beforeAll(async () => {
  testDb = await createTestDatabase();
  server = await startServer(testConfig({ DATABASE_URL: testDb.url, PORT: '0' }));
  const address = server.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(() => testDb.drop());

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection. */
function collect(socket: Socket): { text: () => string; ended: Promise<void> } {
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  return { text: () => text, ended: new Promise((resolve) => socket.once('close', () => resolve())) };
}

function waitForText(read: () => string, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (pattern.test(read())) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > 5_000) {
        clearInterval(poll);
        reject(new Error(`no ${pattern} in ${JSON.stringify(read())}`));
      }
    }, 10);
  });
}

describe('graceful shutdown', () => {
  it('refuses new connections, closes idle keep-alive ones, and finishes a request in flight (not a 503)', async () => {
    const idle = await open();
    const idleReply = collect(idle);
    idle.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    await waitForText(idleReply.text, /"status":"ok"/);

    const body = 'username=nobody&password=wrong';
    const busy = await open();
    const busyReply = collect(busy);
    busy.write(`POST /accounts/login/ HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const events: string[] = [];
    const closing = server.close().then(() => events.push('closed'));
    await idleReply.ended;
    events.push('idle connection closed');
    await expect(open()).rejects.toThrow(/ECONNREFUSED/);

    events.push('rest of the body sent');
    busy.write(body.slice(10));
    await Promise.all([busyReply.ended, closing]);

    // close() waited for the request in flight, which could not end before its body was complete.
    expect(events).toEqual(['idle connection closed', 'rest of the body sent', 'closed']);
    const answer = busyReply.text();
    // The CSRF layer's 403 (no token): the request ran through the app as usual.
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
  });
});

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testConfig, type TestDatabase } from '../test/index.js';
import { REQUEST_TIMEOUT_MS } from './app.js';
import { type RunningServer, startServer } from './server.js';

describe('a request that never finishes arriving', () => {
  let testDb: TestDatabase;
  let server: RunningServer;
  let port: number;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    server = await startServer(testConfig({ DATABASE_URL: testDb.url, PORT: '0' }));
    const address = server.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await server.close();
    await testDb.drop();
  });

  it('is answered 408 and its connection closed once the request timeout has passed', async () => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // A body is announced and never sent: the slow-body half of a slowloris.
    socket.write('POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nusername=a');
    await closed;
    const took = Date.now() - started;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(took).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(REQUEST_TIMEOUT_MS + 5_000);
  }, 60_000);
});

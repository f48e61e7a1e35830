import { type Socket, connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/index.js';
import type { Dialect } from '../../db/database.js';
import { SQLITE_READS_PER_TURN, writesFirst } from './writes-first.js';

// Requests that reach the process in one turn of its event loop, over real sockets: the POST
// written last is handled first, then the reads in the order they came.

let app: FastifyInstance | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await app?.close();
  app = undefined;
});

/** A server whose routes record the order they are handled in, with writesFirst for that database, or without it. */
async function recordingServer(dialect: Dialect | undefined, onRead: (n: string) => void = () => {}): Promise<{ port: number; handled: string[] }> {
  const handled: string[] = [];
  app = Fastify();
  if (dialect !== undefined) await app.register(writesFirst, { dialect });
  app.get('/read/:n', async (request) => {
    const { n } = request.params as { n: string };
    handled.push(`GET ${n}`);
    onRead(n);
    return 'read';
  });
  app.post('/write', async () => {
    handled.push('POST');
    return 'written';
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { port: address.port, handled };
}

/** A kept-alive connection, already past its first request, so that the next is read at once. */
async function warmSocket(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  await exchange(socket, 'GET /read/warm HTTP/1.1\r\nHost: x\r\n\r\n');
  return socket;
}

/** Sends a request and waits for the whole (small) answer. */
function exchange(socket: Socket, request: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    const onData = (chunk: Buffer) => {
      answer += chunk.toString();
      const [head, body = ''] = answer.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(head ?? '')?.[1] ?? -1);
      if (length >= 0 && Buffer.byteLength(body) >= length) {
        socket.off('data', onData);
        resolve(answer);
      }
    };
    socket.on('data', onData);
    socket.write(request);
  });
}

/** Five reads, then a write, sent in one go on six connections; the order the server handled them. */
async function oneTurn(dialect: Dialect | undefined): Promise<string[]> {
  const { port, handled } = await recordingServer(dialect);
  const connections = [];
  for (let i = 0; i < 6; i += 1) connections.push(await warmSocket(port));
  handled.length = 0;
  const answers = connections.map((socket, i) =>
    exchange(socket, i < 5 ? `GET /read/${i + 1} HTTP/1.1\r\nHost: x\r\n\r\n` : 'POST /write HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok'),
  );
  // Client and server share this thread: holding it a moment lets every request arrive before
  // the server's next turn reads its sockets, however slow the machine is.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  const texts = await Promise.all(answers);
  expect(texts.every((text) => text.startsWith('HTTP/1.1 200'))).toBe(true);
  return handled;
}

describe('writes first', () => {
  it('a POST read in the same turn as five GETs is handled before them; the GETs keep their order', async () => {
    expect(await oneTurn('sqlite')).toEqual(['POST', 'GET 1', 'GET 2', 'GET 3', 'GET 4', 'GET 5']);
  });

  it('without it the same requests are handled in the order they came (what the test above would see)', async () => {
    expect(await oneTurn(undefined)).toEqual(['GET 1', 'GET 2', 'GET 3', 'GET 4', 'GET 5', 'POST']);
  });
});

const POST = 'POST /write HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok';

/**
 * Twelve reads in one turn; the first one's handler sends a write, which reaches the process
 * while it works through the other reads. The order the server handled them.
 */
async function writeDuringReads(dialect: Dialect | undefined): Promise<string[]> {
  const writer: { socket?: Socket } = {};
  let written: Promise<string> | undefined;
  const { port, handled } = await recordingServer(dialect, (n) => {
    if (n === '1') written = exchange(writer.socket!, POST);
  });
  const readers = [];
  for (let i = 0; i < 12; i += 1) readers.push(await warmSocket(port));
  writer.socket = await warmSocket(port);
  handled.length = 0;
  const answers = readers.map((socket, i) => exchange(socket, `GET /read/${i + 1} HTTP/1.1\r\nHost: x\r\n\r\n`));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  await Promise.all(answers);
  await written;
  return handled;
}

describe('a write that arrives while reads wait', () => {
  const reads = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `GET ${from + i}`);

  it(`is handled after at most ${SQLITE_READS_PER_TURN} of them on SQLite, not after all; the reads keep their order`, async () => {
    expect(await writeDuringReads('sqlite')).toEqual([...reads(1, SQLITE_READS_PER_TURN), 'POST', ...reads(SQLITE_READS_PER_TURN + 1, 12)]);
  });

  it('on PostgreSQL the turn takes every waiting read, as without writes first', async () => {
    expect(await writeDuringReads('postgres')).toEqual([...reads(1, 12), 'POST']);
  });

  it('without writes first it waits for every read that came before it', async () => {
    expect(await writeDuringReads(undefined)).toEqual([...reads(1, 12), 'POST']);
  });
});

describe('the app', () => {
  it('registers writes first (the crowd bench is otherwise the only check that it runs)', async () => {
    const t = await buildTestApp();
    try {
      expect(t.app.hasPlugin('writes-first')).toBe(true);
    } finally {
      await t.close();
    }
  });
});

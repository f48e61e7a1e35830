import { type Socket, connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.js';
import { writesFirst } from './writes-first.js';

// Requests that reach the process in one turn of its event loop, over real sockets: the POST
// written last is handled first, then the reads in the order they came.

let app: FastifyInstance | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await app?.close();
  app = undefined;
});

/** A server whose routes record the order they are handled in, with or without writesFirst. */
async function recordingServer(withPlugin: boolean): Promise<{ port: number; handled: string[] }> {
  const handled: string[] = [];
  app = Fastify();
  if (withPlugin) await app.register(writesFirst);
  app.get('/read/:n', async (request) => {
    handled.push(`GET ${(request.params as { n: string }).n}`);
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
async function oneTurn(withPlugin: boolean): Promise<string[]> {
  const { port, handled } = await recordingServer(withPlugin);
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
    expect(await oneTurn(true)).toEqual(['POST', 'GET 1', 'GET 2', 'GET 3', 'GET 4', 'GET 5']);
  });

  it('without it the same requests are handled in the order they came (what the test above would see)', async () => {
    expect(await oneTurn(false)).toEqual(['GET 1', 'GET 2', 'GET 3', 'GET 4', 'GET 5', 'POST']);
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

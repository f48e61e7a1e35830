import { EventEmitter } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, type Server, connect, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WorkerChannel, takeConnections } from './cluster-connections.js';

// The worker's side of the hand-off, in this process: a net server stands for the primary,
// accepting connections and passing them over a channel as the cluster's IPC would.

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

const HAND_OFF = 'groupnotes.connections';

/** A channel whose sent messages are kept, and a listening "primary" that hands its connections over it. */
async function primaryAndChannel(): Promise<{ channel: WorkerChannel & EventEmitter; sent: unknown[]; port: number }> {
  const sent: unknown[] = [];
  const channel = Object.assign(new EventEmitter(), {
    connected: true,
    send: (message: unknown) => sent.push(message) > 0,
  });
  const primary: Server = createServer({ pauseOnConnect: true }, (socket) => channel.emit('message', { type: HAND_OFF, act: 'connection' }, socket));
  await new Promise<void>((resolve) => primary.listen(0, '127.0.0.1', resolve));
  closers.push(() => primary.close());
  return { channel, sent, port: (primary.address() as AddressInfo).port };
}

/** Writes `request` over a new connection to `port`; resolves with all it got back once closed. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    closers.push(() => socket.destroy());
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer));
  });
}

describe('a worker taking connections from its primary', () => {
  it('says it is ready, and answers the requests of the connections it is handed', async () => {
    const { channel, sent, port } = await primaryAndChannel();
    const server = createHttpServer((request, reply) => reply.end(`you asked for ${request.url}`));
    closers.push(() => server.close());
    takeConnections(server, () => undefined, channel);
    expect(sent).toEqual([{ type: HAND_OFF, act: 'ready' }]);
    const answer = await exchange(port, 'GET /notes/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/you asked for \/notes\/$/);
  });

  it("times out a handed connection whose request never finishes arriving (Node's request timeout applies)", async () => {
    const { channel, port } = await primaryAndChannel();
    // Answers once the whole body has arrived.
    const server = createHttpServer({ requestTimeout: 300, connectionsCheckingInterval: 50 }, (request, reply) => {
      request.resume();
      request.on('end', () => reply.end('done'));
    });
    closers.push(() => server.close());
    takeConnections(server, () => undefined, channel);
    const started = Date.now();
    const answer = await exchange(port, 'POST /accounts/login/ HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nusername=');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("drains when the primary says so, with the primary's reason, and ignores other messages", async () => {
    const { channel } = await primaryAndChannel();
    const server = createHttpServer();
    const drains: string[] = [];
    takeConnections(server, (reason) => drains.push(reason), channel);
    channel.emit('message', { type: 'groupnotes.hub', encoded: '{}' });
    channel.emit('message', { type: HAND_OFF, act: 'connection' });
    expect(drains).toEqual([]);
    channel.emit('message', { type: HAND_OFF, act: 'drain', reason: 'SIGTERM' });
    expect(drains).toEqual(['SIGTERM']);
  });
});

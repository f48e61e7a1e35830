import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';

export interface Frame {
  type: string;
  [key: string]: unknown;
}

/** A real WebSocket client that records every frame and can wait for the next ones. */
export class ChatClient {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Frame);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** Waits until `count` frames matching `match` have arrived (counting those already here). */
  async waitFor(match: (frame: Frame) => boolean, count = 1, timeoutMs = 10_000): Promise<Frame[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.filter(match);
      if (found.length >= count) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${count} frame(s); got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.ws.close();
  }
}

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

interface HandshakeOptions {
  sessionKey?: string | undefined;
  /** Defaults to the server's own origin; null sends none. */
  origin?: string | null;
}

function open(address: string, path: string, options: HandshakeOptions): WebSocket {
  const headers: Record<string, string> = {};
  if (options.sessionKey) headers.cookie = `sessionid=${options.sessionKey}`;
  const origin = options.origin === undefined ? `http://${address}` : options.origin;
  return new WebSocket(`ws://${address}${path}`, { headers, ...(origin ? { origin } : {}) });
}

/** Connects and resolves once the server accepted; rejects with the HTTP status otherwise. */
export function connectChat(address: string, path: string, options: HandshakeOptions = {}): Promise<ChatClient> {
  const ws = open(address, path, options);
  const client = new ChatClient(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_request, response) => reject(new Error(`handshake refused with ${response.statusCode}`)));
    ws.once('error', reject);
  });
}

/** The HTTP status of a refused handshake; fails the test if the socket was ever opened. */
export function refusedStatus(address: string, path: string, options: HandshakeOptions = {}): Promise<number> {
  const ws = open(address, path, options);
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.terminate();
      reject(new Error('the handshake was accepted'));
    });
    ws.once('unexpected-response', (request, response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      request.destroy();
      resolve(status);
    });
    ws.once('error', () => undefined);
  });
}

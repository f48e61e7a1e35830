import { type Socket, connect } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** A WebSocket handshake written by hand over a raw socket, to send what no client library would. */
export interface RawUpgrade {
  socket: Socket;
  /** Everything the server sent so far. */
  text(): string;
  /** The server ended its side (FIN) or the socket closed. */
  ended: Promise<void>;
}

export function upgradeRequest(path: string, headers: Record<string, string>, method = 'GET'): string {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Upgrade: WebSocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Key: PkiECTxkRtWOiduJIe96fA==',
    'Sec-WebSocket-Version: 13',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export function rawUpgrade(address: string, request: string): Promise<RawUpgrade> {
  const [host, port] = address.split(':');
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect({ host: host!, port: Number(port), allowHalfOpen: true }, () => {
      socket.write(request);
      resolve({ socket, text: () => text, ended });
    });
    const ended = new Promise<void>((done) => {
      socket.once('end', () => done());
      socket.once('close', () => done());
    });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.once('error', reject);
  });
}

/** A masked binary frame, as a client sends it. */
export function binaryFrame(payload: Buffer): Buffer {
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from([0x82, 0x80 | payload.length]), mask, masked]);
}

export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Connections the listening server still holds open, upgraded ones included. */
export function serverConnections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve, reject) => app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

import type { Cluster, Worker } from 'node:cluster';
import type { Server as HttpServer } from 'node:http';
import { type Server, Socket as NetSocket, type Socket, createServer } from 'node:net';

// In a cluster the primary owns the listening socket and hands each connection it accepts to a
// worker, as Node's own round-robin does. Doing it here puts a shutdown in the right order: the
// primary stops listening first (nginx's next connect is refused and goes to another instance),
// and only then tells the workers to drain, over the same channel as the connections, so every
// connection it accepted reaches a worker that still takes it. Node's round-robin stops listening
// only once the last worker has closed, and drops what it then holds for a worker: connections
// nginx has already sent a request on, often a POST, which nginx does not send again (a 502).

const MESSAGE_TYPE = 'groupnotes.connections';

type Act = 'ready' | 'leaving' | 'connection' | 'drain';

interface HandOffMessage {
  type: typeof MESSAGE_TYPE;
  act: Act;
  /** With 'drain': why (the signal the primary or the worker was sent). */
  reason?: string;
}

function isHandOff(message: unknown): message is HandOffMessage {
  return typeof message === 'object' && message !== null && (message as HandOffMessage).type === MESSAGE_TYPE;
}

const handOff = (act: Act, reason?: string): HandOffMessage => ({ type: MESSAGE_TYPE, act, reason });

/** A worker's channel to its primary: `process` in a cluster worker. */
export interface WorkerChannel {
  on(event: 'message', listener: (message: unknown, handle?: unknown) => void): unknown;
  send?(message: unknown): boolean;
  connected?: boolean;
}

/**
 * The primary's side: listens on `host:port` once a worker is ready (and for as long as one is),
 * and deals the connections out to the ready workers in turn.
 */
export class ConnectionDealer {
  private readonly ready: Worker[] = [];
  private turn = 0;
  private readonly listener: Server;
  private stopping: string | null = null;
  /** Listening, or about to be (binding a host name waits for its lookup). */
  private open = false;

  constructor(
    primary: Cluster,
    private readonly address: { host: string; port: number },
    events: { listening(url: string): void; ready(worker: Worker, count: number): void; failed(error: Error): void },
  ) {
    // The primary never reads: the worker a connection goes to reads its request.
    this.listener = createServer({ pauseOnConnect: true }, (socket) => this.deal(socket));
    this.listener.on('error', events.failed);
    this.listener.on('listening', () => {
      const bound = this.listener.address();
      if (bound && typeof bound === 'object') events.listening(`http://${bound.address}:${bound.port}`);
    });
    primary.on('message', (worker: Worker, message: unknown) => {
      if (!isHandOff(message)) return;
      if (message.act === 'ready' && this.stopping === null) {
        this.ready.push(worker);
        events.ready(worker, this.ready.length);
        this.listen();
      } else if (message.act === 'ready' || message.act === 'leaving') {
        // Started after the shutdown began, or stopping on a signal of its own.
        this.remove(worker);
        if (worker.isConnected()) worker.send(handOff('drain', this.stopping ?? message.reason));
      }
    });
    primary.on('exit', (worker: Worker) => this.remove(worker));
  }

  /** Stops listening, then tells every ready worker to drain (a worker still starting is told when ready). */
  stop(reason: string): void {
    this.stopping = reason;
    this.close();
    for (const worker of this.ready.splice(0)) if (worker.isConnected()) worker.send(handOff('drain', reason));
  }

  private listen(): void {
    if (this.open) return;
    this.open = true;
    this.listener.listen({ host: this.address.host, port: this.address.port });
  }

  private close(): void {
    if (!this.open) return;
    this.open = false;
    this.listener.close();
  }

  private remove(worker: Worker): void {
    const index = this.ready.indexOf(worker);
    if (index !== -1) this.ready.splice(index, 1);
    // No worker to take a connection: refused, so that a proxy tries another instance.
    if (this.ready.length === 0) this.close();
  }

  private deal(socket: Socket): void {
    const worker = this.ready[this.turn % this.ready.length];
    this.turn = (this.turn + 1) % 1_000_000;
    if (!worker?.isConnected()) {
      socket.destroy();
      return;
    }
    // Sent, the primary's copy of the socket is closed.
    worker.send(handOff('connection'), socket, (error: Error | null) => {
      if (error) socket.destroy();
    });
  }
}

/**
 * A worker's side: `server` takes the connections the primary hands it, and `drain` runs when the
 * primary says so (after every connection it handed this worker). Tells the primary it is ready.
 */
export function takeConnections(server: HttpServer, drain: (reason: string) => void, channel: WorkerChannel = process): void {
  // Node's HTTP server starts enforcing its header and request timeouts when it starts
  // listening; this one never listens itself.
  server.emit('listening');
  channel.on('message', (message, socket) => {
    if (!isHandOff(message)) return;
    if (message.act === 'connection' && socket instanceof NetSocket) {
      server.emit('connection', socket);
      // Accepted paused (the primary never reads): the request is read from here on.
      socket.resume();
    } else if (message.act === 'drain') drain(message.reason ?? 'primary');
  });
  channel.send?.(handOff('ready'));
}

/** A worker sent a signal itself: the primary stops handing it connections, then tells it to drain. */
export function leave(reason: string, channel: WorkerChannel = process): void {
  if (channel.connected) channel.send?.(handOff('leaving', reason));
}

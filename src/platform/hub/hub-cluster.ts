import type { Cluster } from 'node:cluster';
import type { HubTransport } from './transport.js';

// Cluster workers of one `serve` share no memory: a worker sends its events to the primary
// over the IPC channel, and the primary passes them on to every other worker.

const MESSAGE_TYPE = 'groupnotes.hub';

interface HubIpcMessage {
  type: typeof MESSAGE_TYPE;
  encoded: string;
}

function isHubMessage(message: unknown): message is HubIpcMessage {
  return typeof message === 'object' && message !== null && (message as HubIpcMessage).type === MESSAGE_TYPE && typeof (message as HubIpcMessage).encoded === 'string';
}

export class ClusterTransport implements HubTransport {
  readonly name = 'cluster';
  private listener: ((message: unknown) => void) | null = null;

  constructor(private readonly channel: NodeJS.Process = process) {}

  async start(receive: (encoded: string) => void): Promise<void> {
    this.listener = (message) => {
      if (isHubMessage(message)) receive(message.encoded);
    };
    this.channel.on('message', this.listener);
  }

  async send(encoded: string): Promise<void> {
    if (!this.channel.connected || !this.channel.send) throw new Error('the IPC channel to the cluster primary is closed');
    const message: HubIpcMessage = { type: MESSAGE_TYPE, encoded };
    this.channel.send(message);
  }

  async close(): Promise<void> {
    if (this.listener) this.channel.off('message', this.listener);
    this.listener = null;
  }
}

/** For the primary of a cluster: passes each worker's hub events on to every other worker. */
export function relayHubEvents(primary: Cluster): void {
  primary.on('message', (sender, message: unknown) => {
    if (!isHubMessage(message)) return;
    for (const worker of Object.values(primary.workers ?? {})) {
      if (worker && worker !== sender && worker.isConnected()) worker.send(message);
    }
  });
}

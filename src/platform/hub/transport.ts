/** Carries encoded events to the other instances; never back to the sender. */
export interface HubTransport {
  readonly name: string;
  start(receive: (encoded: string) => void): Promise<void>;
  send(encoded: string): Promise<void>;
  close(): Promise<void>;
  /** For /healthz, where the transport depends on a server: rejects when it cannot carry events now. */
  check?(): Promise<void>;
}

/** A single process: the hub has already delivered every event locally, so nothing travels. */
export class MemoryTransport implements HubTransport {
  readonly name = 'memory';

  async start(): Promise<void> {}

  async send(): Promise<void> {}

  async close(): Promise<void> {}
}

import type { ReadMark } from './reads.js';

/** How often the marks of messages shown on open sockets are written: at most one write per member and group this often. */
export const READ_FLUSH_MS = 5_000;

/**
 * Read marks of messages delivered to open chat sockets, kept in memory and written every few
 * seconds, and when a socket closes: not a write per message per socket. Opening the chat writes
 * its mark at once, so the counts elsewhere are right as soon as the reader leaves.
 */
export class ReadMarkBuffer {
  private readonly dirty = new Map<string, ReadMark>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly save: (mark: ReadMark) => Promise<void>,
    private readonly onError: (error: unknown) => void,
    intervalMs = READ_FLUSH_MS,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** `userId` was shown message `messageId` of `groupId`. */
  seen(userId: number, groupId: number, messageId: number): void {
    const key = `${userId}:${groupId}`;
    const mark = this.dirty.get(key);
    if (!mark) this.dirty.set(key, { userId, groupId, messageId });
    else if (messageId > mark.messageId) mark.messageId = messageId;
  }

  /** Writes the mark of one member and group now, if it moved. */
  async flushOne(userId: number, groupId: number): Promise<void> {
    const key = `${userId}:${groupId}`;
    const mark = this.dirty.get(key);
    if (!mark) return;
    this.dirty.delete(key);
    await this.write([mark]);
  }

  async flush(): Promise<void> {
    const marks = [...this.dirty.values()];
    this.dirty.clear();
    await this.write(marks);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(marks: ReadMark[]): Promise<void> {
    for (const mark of marks) {
      try {
        await this.save(mark);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}

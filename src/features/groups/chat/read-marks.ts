import type { ReadMark } from './reads.js';

/**
 * Read marks of messages shown on open chat sockets, written as they come: a member whose chat
 * is open and in sight has read each message as it arrives, and the navigation's count and the
 * bell on their other pages drop with it. Not a write per message per member: a write takes the
 * marks of every member shown the message on this instance at once, and the marks that come while
 * one write is out go together in the next.
 */
export class ReadMarkWriter {
  private readonly pending = new Map<string, ReadMark>();
  private writing: Promise<void> | null = null;
  /** How many marks were seen, and how many of those are written (or given up on): what settled() compares. */
  private seenCount = 0;
  private writtenCount = 0;
  private waiters: { count: number; wake: () => void }[] = [];

  constructor(
    private readonly save: (marks: ReadMark[]) => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** `mark.userId` was shown the messages of `mark.groupId` up to `mark.messageId`. */
  seen(mark: ReadMark): void {
    this.seenCount += 1;
    const key = `${mark.userId}:${mark.groupId}`;
    const had = this.pending.get(key);
    if (!had || mark.messageId > had.messageId) this.pending.set(key, { ...mark });
    // Started now, in this turn, so that it goes before whatever is asked after it.
    this.writing ??= this.drain();
  }

  /** Once the marks seen until now are written (not those seen after: a busy chat keeps no one waiting). */
  settled(): Promise<void> {
    const count = this.seenCount;
    if (this.writtenCount >= count) return Promise.resolve();
    return new Promise((wake) => this.waiters.push({ count, wake }));
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const upTo = this.seenCount;
        const marks = [...this.pending.values()];
        this.pending.clear();
        try {
          await this.save(marks);
        } catch (error) {
          this.onError(error);
        }
        this.writtenCount = upTo;
        const waiting = this.waiters;
        this.waiters = waiting.filter((waiter) => waiter.count > upTo);
        for (const waiter of waiting) if (waiter.count <= upTo) waiter.wake();
      }
    } finally {
      this.writing = null;
    }
  }
}

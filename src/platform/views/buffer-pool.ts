/** Buffers are handed out in sizes rounded up to this, so that one freed can serve a page near its size. */
const STEP = 4096;
/** A free buffer serves a request up to this many steps smaller than itself. */
const REACH = 3;

/**
 * Memory for kept pages (page-cache.ts), used again rather than left to the collector.
 *
 * A page's bytes live outside V8's heap, but V8 counts them, and starts a full mark-compact of
 * the heap once about 64 MB more of them were allocated. A busy cache throws out and takes in
 * pages all the time (tens of MB a second under the crowd benchmark): that made a full
 * collection, 10 to 40 ms of pause, about every second in each worker. Buffers taken back here
 * and handed out again are not new allocations, so they start none.
 *
 * Only buffers from `take` may be given back, and only once nothing reads or writes them (a
 * copy of a page is given back after its response was written out). At most `limitBytes` wait
 * here; more are left to the collector. Memory given back twice is kept once, so that a slip in
 * a caller cannot hand one buffer to two responses (one user's page in another's).
 */
export class BufferPool {
  /** Free memory by size in steps. */
  private readonly free = new Map<number, ArrayBuffer[]>();
  /** The same memory, to refuse it given back twice: handed out twice, two responses would share it. */
  private readonly waiting = new Set<ArrayBuffer>();
  private freeBytes = 0;

  constructor(private readonly limitBytes: number) {}

  /** `size` bytes whose content is left from before: the caller writes every byte it sends. */
  take(size: number): Buffer {
    const steps = Math.max(1, Math.ceil(size / STEP));
    for (let fit = steps; fit <= steps + REACH; fit++) {
      const memory = this.free.get(fit)?.pop();
      if (memory) {
        this.waiting.delete(memory);
        this.freeBytes -= memory.byteLength;
        return Buffer.from(memory, 0, size);
      }
    }
    // Its own memory (allocUnsafe would carve a small one out of Node's shared slab).
    return Buffer.allocUnsafeSlow(steps * STEP).subarray(0, size);
  }

  /** Takes back a buffer from `take` that nothing uses any more. */
  give(buffer: Buffer): void {
    const memory = buffer.buffer;
    if (!(memory instanceof ArrayBuffer) || this.waiting.has(memory) || this.freeBytes + memory.byteLength > this.limitBytes) return;
    this.waiting.add(memory);
    const steps = memory.byteLength / STEP;
    const list = this.free.get(steps);
    if (list) list.push(memory);
    else this.free.set(steps, [memory]);
    this.freeBytes += memory.byteLength;
  }

  /** Bytes waiting to be taken again. */
  get waitingBytes(): number {
    return this.freeBytes;
  }
}

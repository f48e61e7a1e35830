import { describe, expect, it } from 'vitest';
import { ReadMarkWriter } from './read-marks.js';
import type { ReadMark } from './reads.js';

// The read marks of messages shown in sight: written at once, those that come while a write is out
// together in the next, the highest message of each member and group; settled() waits only for
// what was seen before it was asked.

function writer() {
  const writes: ReadMark[][] = [];
  const done: (() => void)[] = [];
  const errors: unknown[] = [];
  const marks = new ReadMarkWriter(
    (batch) => {
      writes.push(batch);
      if (batch.some((mark) => mark.messageId < 0)) return Promise.reject(new Error('refused'));
      return new Promise<void>((resolve) => done.push(resolve));
    },
    (error) => errors.push(error),
  );
  return { marks, writes, done, errors };
}

const mark = (userId: number, messageId: number, groupId = 1): ReadMark => ({ userId, groupId, messageId, at: messageId * 1000 });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ReadMarkWriter', () => {
  it('writes the first mark at once, in the same turn, and those seen meanwhile together after it', async () => {
    const { marks, writes, done } = writer();
    marks.seen(mark(1, 10));
    expect(writes).toEqual([[mark(1, 10)]]);
    marks.seen(mark(2, 11));
    marks.seen(mark(2, 12));
    marks.seen(mark(2, 9));
    marks.seen(mark(1, 12, 2));
    expect(writes).toHaveLength(1);
    done.shift()!();
    await tick();
    expect(writes[1]).toEqual([mark(2, 12), mark(1, 12, 2)]);
    done.shift()!();
    await marks.settled();
  });

  it('settles once what was seen before is written, not what comes after', async () => {
    const { marks, done } = writer();
    await marks.settled();
    marks.seen(mark(1, 1));
    let settled = false;
    void marks.settled().then(() => (settled = true));
    marks.seen(mark(1, 2));
    await tick();
    expect(settled).toBe(false);
    done.shift()!();
    await tick();
    // Asked between the two marks: it waited for the first one's write alone.
    expect(settled).toBe(true);
    done.shift()!();
    await marks.settled();
  });

  it('carries on past a write that fails, which it reports', async () => {
    const { marks, writes, done, errors } = writer();
    marks.seen(mark(1, -1));
    await marks.settled();
    expect(errors).toHaveLength(1);
    marks.seen(mark(1, 5));
    expect(writes).toHaveLength(2);
    done.shift()!();
    await marks.settled();
  });
});

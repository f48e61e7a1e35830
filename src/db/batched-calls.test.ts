import { describe, expect, it } from 'vitest';
import { BatchedCalls } from './batched-calls.js';

/** A batch that doubles numbers, recording each run's arguments. */
function doubler(max = 64, fail?: (batch: readonly number[]) => boolean) {
  const runs: number[][] = [];
  const batch = new BatchedCalls<number, number>(async (batch) => {
    runs.push([...batch]);
    if (fail?.(batch)) throw new Error(`run ${runs.length} failed`);
    return batch.map((value) => value * 2);
  }, max);
  return { batch, runs };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchedCalls', () => {
  it('answers the calls of one turn of the event loop with one run, each with its own answer', async () => {
    const { batch, runs } = doubler();
    const answers = await Promise.all([1, 2, 3, 4].map((value) => batch.call(value)));
    expect(answers).toEqual([2, 4, 6, 8]);
    expect(runs).toEqual([[1, 2, 3, 4]]);
  });

  it('runs again for calls made in a later turn', async () => {
    const { batch, runs } = doubler();
    const first = batch.call(1);
    await nextTurn();
    const second = batch.call(2);
    expect(await Promise.all([first, second])).toEqual([2, 4]);
    expect(runs).toEqual([[1], [2]]);
  });

  it('puts at most `max` calls in a run, in the order asked', async () => {
    const { batch, runs } = doubler(2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((value) => batch.call(value)))).toEqual([2, 4, 6, 8, 10]);
    expect(runs).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails the calls of a failed run and no other', async () => {
    const { batch } = doubler(2, (batch) => batch.includes(3));
    const settled = await Promise.allSettled([1, 2, 3, 4, 5].map((value) => batch.call(value)));
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(await batch.call(6)).toBe(12);
  });

  it('fails every call of a run that throws at once or answers too few', async () => {
    const throwing = new BatchedCalls<number, number>(() => {
      throw new Error('at once');
    }, 8);
    await expect(Promise.all([throwing.call(1), throwing.call(2)])).rejects.toThrow('at once');
    const short = new BatchedCalls<number, number>(async (batch) => batch.slice(1), 8);
    const settled = await Promise.allSettled([short.call(1), short.call(2)]);
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });

  it('with `maxRuns` in flight, calls of later turns wait for one to end and then go as one run', async () => {
    const runs: number[][] = [];
    const ends: (() => void)[] = [];
    const batch = new BatchedCalls<number, number>(async (batch) => {
      runs.push([...batch]);
      await new Promise<void>((resolve) => ends.push(resolve));
      return batch.map((value) => value * 2);
    }, 64, 1);
    const first = batch.call(1);
    await nextTurn();
    expect(runs).toEqual([[1]]);
    // Three turns while the first run is in flight: no run starts.
    const later = [batch.call(2)];
    await nextTurn();
    later.push(batch.call(3));
    await nextTurn();
    later.push(batch.call(4));
    await nextTurn();
    expect(runs).toEqual([[1]]);
    ends.shift()!();
    expect(await first).toBe(2);
    await nextTurn();
    expect(runs).toEqual([[1], [2, 3, 4]]);
    ends.shift()!();
    expect(await Promise.all(later)).toEqual([4, 6, 8]);
  });

  it('starts the next run when one in flight fails', async () => {
    let calls = 0;
    const batch = new BatchedCalls<number, number>(async (batch) => {
      calls += 1;
      if (calls === 1) throw new Error('first run failed');
      return batch.map((value) => value * 2);
    }, 64, 1);
    const settled = await Promise.allSettled([batch.call(1), (async () => {
      await nextTurn();
      return batch.call(2);
    })()]);
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
  });
});

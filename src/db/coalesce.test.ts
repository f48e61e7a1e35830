import { describe, expect, it } from 'vitest';
import { Coalescer } from './coalesce.js';

/** A coalescer that doubles numbers, recording each run's arguments. */
function doubler(max = 64, fail?: (batch: readonly number[]) => boolean) {
  const runs: number[][] = [];
  const coalescer = new Coalescer<number, number>(async (batch) => {
    runs.push([...batch]);
    if (fail?.(batch)) throw new Error(`run ${runs.length} failed`);
    return batch.map((value) => value * 2);
  }, max);
  return { coalescer, runs };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('Coalescer', () => {
  it('answers the calls of one turn of the event loop with one run, each with its own answer', async () => {
    const { coalescer, runs } = doubler();
    const answers = await Promise.all([1, 2, 3, 4].map((value) => coalescer.call(value)));
    expect(answers).toEqual([2, 4, 6, 8]);
    expect(runs).toEqual([[1, 2, 3, 4]]);
  });

  it('runs again for calls made in a later turn', async () => {
    const { coalescer, runs } = doubler();
    const first = coalescer.call(1);
    await nextTurn();
    const second = coalescer.call(2);
    expect(await Promise.all([first, second])).toEqual([2, 4]);
    expect(runs).toEqual([[1], [2]]);
  });

  it('puts at most `max` calls in a run, in the order asked', async () => {
    const { coalescer, runs } = doubler(2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((value) => coalescer.call(value)))).toEqual([2, 4, 6, 8, 10]);
    expect(runs).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails the calls of a failed run and no other', async () => {
    const { coalescer } = doubler(2, (batch) => batch.includes(3));
    const settled = await Promise.allSettled([1, 2, 3, 4, 5].map((value) => coalescer.call(value)));
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(await coalescer.call(6)).toBe(12);
  });

  it('fails every call of a run that throws at once or answers too few', async () => {
    const throwing = new Coalescer<number, number>(() => {
      throw new Error('at once');
    }, 8);
    await expect(Promise.all([throwing.call(1), throwing.call(2)])).rejects.toThrow('at once');
    const short = new Coalescer<number, number>(async (batch) => batch.slice(1), 8);
    const settled = await Promise.allSettled([short.call(1), short.call(2)]);
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });

  it('with `maxRuns` in flight, calls of later turns wait for one to end and then go as one run', async () => {
    const runs: number[][] = [];
    const ends: (() => void)[] = [];
    const coalescer = new Coalescer<number, number>(async (batch) => {
      runs.push([...batch]);
      await new Promise<void>((resolve) => ends.push(resolve));
      return batch.map((value) => value * 2);
    }, 64, 1);
    const first = coalescer.call(1);
    await nextTurn();
    expect(runs).toEqual([[1]]);
    // Three turns while the first run is in flight: no run starts.
    const later = [coalescer.call(2)];
    await nextTurn();
    later.push(coalescer.call(3));
    await nextTurn();
    later.push(coalescer.call(4));
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
    const coalescer = new Coalescer<number, number>(async (batch) => {
      calls += 1;
      if (calls === 1) throw new Error('first run failed');
      return batch.map((value) => value * 2);
    }, 64, 1);
    const settled = await Promise.allSettled([coalescer.call(1), (async () => {
      await nextTurn();
      return coalescer.call(2);
    })()]);
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
  });
});

import { describe, expect, it } from 'vitest';
import { ConnectionLanes, GOES_FIRST, goesFirst, lazyClient } from './pg-pool.js';

// The two lines for a connection (pg-pool.ts), with numbered stand-ins for connections: the
// order of lending is the queue's own logic, whatever a connection is.

/** Lanes over numbered connections; `given` records each one given back. */
function numbered(size: number, open?: () => Promise<number>) {
  let next = 0;
  const given: number[] = [];
  const lanes = new ConnectionLanes(size, open ?? (async () => (next += 1)), (connection: number) => given.push(connection));
  return { lanes, given };
}

/** Lets every pending promise callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ConnectionLanes', () => {
  it('lends up to its size at once; the next waits until one is released, then gets that place', async () => {
    const { lanes, given } = numbered(2);
    const [a, b] = [await lanes.acquire(false), await lanes.acquire(false)];
    let third: number | undefined;
    void lanes.acquire(false).then((connection) => (third = connection));
    await settle();
    expect(third).toBeUndefined();
    expect(lanes.waiting).toEqual({ first: 0, second: 1 });
    lanes.release(a);
    await settle();
    expect(given).toEqual([a]);
    expect(third).toBeDefined();
    expect(lanes.waiting).toEqual({ first: 0, second: 0 });
    lanes.release(b);
    lanes.release(third!);
    // All places free again: two more at once without waiting.
    await lanes.acquire(false);
    await lanes.acquire(true);
    expect(lanes.waiting).toEqual({ first: 0, second: 0 });
  });

  it('a freed place goes to the oldest waiting write before any waiting read, even one that asked earlier', async () => {
    const { lanes } = numbered(1);
    const held = await lanes.acquire(false);
    const order: string[] = [];
    const ask = (name: string, first: boolean) => void lanes.acquire(first).then((connection) => {
      order.push(name);
      lanes.release(connection);
    });
    ask('read 1', false);
    ask('read 2', false);
    ask('write 1', true);
    ask('write 2', true);
    await settle();
    expect(lanes.waiting).toEqual({ first: 2, second: 2 });
    lanes.release(held);
    for (let i = 0; i < 8; i += 1) await settle();
    expect(order).toEqual(['write 1', 'write 2', 'read 1', 'read 2']);
  });

  it('a connection that fails to open frees its place: the next waiter gets one', async () => {
    // Each attempt to open fails or gives the next number, in this order.
    const outcomes = [false, true, false, true];
    let next = 0;
    const { lanes } = numbered(1, async () => {
      if (!outcomes.shift()) throw new Error('refused');
      return (next += 1);
    });
    await expect(lanes.acquire(true)).rejects.toThrow('refused');
    // The failed attempt did not keep the only place.
    const held = await lanes.acquire(false);
    expect(held).toBe(1);
    const waiting = lanes.acquire(false);
    const after = lanes.acquire(false);
    lanes.release(held);
    await expect(waiting).rejects.toThrow('refused');
    expect(await after).toBe(2);
    expect(lanes.waiting).toEqual({ first: 0, second: 0 });
  });

  it('a statement that waits too long fails and leaves its line; the place it never got goes to the next', async () => {
    let next = 0;
    const lanes = new ConnectionLanes(1, async () => (next += 1), () => undefined, 50);
    const held = await lanes.acquire(false);
    const started = Date.now();
    await expect(lanes.acquire(true)).rejects.toThrow('no database connection came free within 50 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(lanes.waiting).toEqual({ first: 0, second: 0 });
    const after = lanes.acquire(false);
    lanes.release(held);
    expect(await after).toBe(2);
    // Given back, the one place is free: the next is lent at once.
    lanes.release(2);
    expect(await lanes.acquire(true)).toBe(3);
  });
});

describe('goesFirst', () => {
  it('puts transactions, writes and marked reads first, and other reads second', () => {
    for (const source of ['begin', 'BEGIN', 'start transaction isolation level repeatable read', 'insert into "notes" ("title") values ($1)', ' update "notes" set "title" = $1', 'delete from "note_tags" where "note_id" = $1', 'with saved as (update "notes" set "title" = $1 returning "id") select * from saved', `select ${GOES_FIRST} "sessions"."session_key" from "sessions"`]) {
      expect(goesFirst(source), source).toBe(true);
    }
    for (const source of ['select * from "notes"', 'with visible as (select "id" from "notes") select * from visible', 'select "updated_at" from "notes"', 'commit']) {
      expect(goesFirst(source), source).toBe(false);
    }
  });
});

describe('lazyClient', () => {
  /** A client over numbered connections whose statements are recorded as `connection: text`. */
  function client(lanes: ConnectionLanes<number>, sent: string[]) {
    return lazyClient(lanes, (connection) => (async (source: string) => {
      sent.push(`${connection}: ${source}`);
      return { command: 'SELECT', rowCount: 0, rows: [] };
    }) as never);
  }

  it('takes no connection before its first statement, which picks the line', async () => {
    const { lanes } = numbered(1);
    const held = await lanes.acquire(false);
    const sent: string[] = [];
    const [reader, writer] = [client(lanes, sent), client(lanes, sent)];
    expect(lanes.waiting).toEqual({ first: 0, second: 0 });
    const read = reader.query('select 1', []);
    const write = writer.query('update "notes" set "title" = $1', ['x']);
    await settle();
    expect(lanes.waiting).toEqual({ first: 1, second: 1 });
    lanes.release(held);
    await write;
    writer.release();
    await read;
    reader.release();
    expect(sent).toEqual(['2: update "notes" set "title" = $1', '3: select 1']);
  });

  it('sends every statement of a transaction on the connection it took, and gives it back once', async () => {
    const { lanes, given } = numbered(2);
    const sent: string[] = [];
    const transaction = client(lanes, sent);
    for (const source of ['begin', 'select 1', 'update "notes" set "title" = $1', 'commit']) await transaction.query(source, []);
    transaction.release();
    transaction.release();
    expect(sent).toEqual(['1: begin', '1: select 1', '1: update "notes" set "title" = $1', '1: commit']);
    expect(given).toEqual([1]);
  });

  it('released before its connection came, it gives the connection back when it comes', async () => {
    const { lanes, given } = numbered(1);
    const held = await lanes.acquire(false);
    const sent: string[] = [];
    const late = client(lanes, sent);
    const pending = late.query('select 1', []);
    late.release();
    lanes.release(held);
    await pending;
    await settle();
    expect(given).toEqual([1, 2]);
    expect(lanes.waiting).toEqual({ first: 0, second: 0 });
  });
});

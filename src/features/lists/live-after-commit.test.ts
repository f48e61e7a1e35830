import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hub, type HubEvent } from '../../platform/hub/hub.js';
import { MemoryTransport } from '../../platform/hub/transport.js';
import { addTodoItem, buildTestApp, createTodoList, createUser, type TestApp } from '../../../test/index.js';
import { liveReader } from './live.js';
import { ListService } from './service.js';
import { TODO } from './todo/kind.js';
import { todoLive } from './todo/live.js';
import { checkedChange } from '../../platform/api/changes.js';
import { LiveListEvents } from './live-events.js';
import { type AfterCommit } from '../../platform/api/changes.js';

// A change made in a caller's transaction (the API's If-Match) is announced to live pages only
// once that transaction has committed: a rolled-back tick is never shown to anyone.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const noIfMatch = { headers: {} } as FastifyRequest;

async function world() {
  const hub = new Hub(new MemoryTransport(), t.app.log);
  const events: HubEvent[] = [];
  hub.subscribe((event) => events.push(event));
  const live = new LiveListEvents(hub, liveReader(TODO, todoLive), t.app.log);
  const owner = await createUser(t.db);
  const list = await createTodoList(t.db, owner);
  const item = await addTodoItem(t.db, list);
  const on = (trx: typeof t.db, later: AfterCommit) => new ListService(trx, TODO, {}, null, live.deferred(later, t.db));
  return { events, owner, item, on };
}

describe('live events of a change in the caller’s transaction', () => {
  it('are published after the commit, with the committed row', async () => {
    const { events, owner, item, on } = await world();
    await checkedChange(t.db, noIfMatch, {
      on,
      lock: (service) => service.lockTickableItem(owner.id, item.id),
      read: async () => null,
      write: async (service) => {
        await service.markItem(owner.id, item.id, true);
        expect(events).toEqual([]);
      },
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'list.item', item: { id: item.id, is_done: 1 } });
  });

  it('are never published when the transaction rolls back', async () => {
    const { events, owner, item, on } = await world();
    const failing = checkedChange(t.db, noIfMatch, {
      on,
      lock: (service) => service.lockTickableItem(owner.id, item.id),
      read: async () => null,
      write: async (service) => {
        await service.markItem(owner.id, item.id, true);
        throw new Error('a later step failed');
      },
    });
    await expect(failing).rejects.toThrow('a later step failed');
    expect(events).toEqual([]);
    const stored = await t.db.selectFrom('todo_items').select('is_done').where('id', '=', item.id).executeTakeFirstOrThrow();
    expect(stored.is_done).toBe(0);
  });
});

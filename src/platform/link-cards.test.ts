import { describe, expect, it } from 'vitest';
import { LinkCards } from './link-cards.js';

describe('LinkCards', () => {
  it('asks each kind once for its ids, and answers only what the kind says is visible', async () => {
    const asked: [number, readonly number[]][] = [];
    const cards = new LinkCards();
    cards.register({
      kind: 'note',
      label: 'Note',
      path: '/notes/',
      visible: async (userId, ids) => {
        asked.push([userId, ids]);
        return ids.filter((id) => id !== 2).map((id) => ({ id, title: `n${id}` }));
      },
    });
    const found = await cards.resolve(7, [{ kind: 'note', id: 1 }, { kind: 'note', id: 2 }, { kind: 'note', id: 1 }, { kind: 'other', id: 3 }]);
    expect(asked).toEqual([[7, [1, 2]]]);
    expect(found).toEqual([{ kind: 'note', label: 'Note', id: 1, title: 'n1', url: '/notes/1/' }]);
    expect(cards.paths()).toEqual({ note: '/notes/' });
  });

  it('refuses a kind registered twice', () => {
    const cards = new LinkCards();
    const kind = { kind: 'todo', label: 'To-do list', path: '/todo/', visible: async () => [] };
    cards.register(kind);
    expect(() => cards.register(kind)).toThrow(/twice/);
  });
});
